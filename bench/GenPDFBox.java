// Makes bench/realworld.sh's PDFBox sample (java -cp PDFBOX_JARS bench/GenPDFBox.java OUT.pdf): a link to a page, one to a
// named destination that does not exist, a URI to a missing file, the web, an /XYZ destination.
import org.apache.pdfbox.pdmodel.*;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionURI;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.*;

public class GenPDFBox {
    static PDAnnotationLink link(PDPage p, float y) throws Exception {
        PDAnnotationLink l = new PDAnnotationLink();
        l.setRectangle(new PDRectangle(72, y, 150, 20));
        p.getAnnotations().add(l);
        return l;
    }
    public static void main(String[] a) throws Exception {
        PDDocument d = new PDDocument();
        PDPage p1 = new PDPage(), p2 = new PDPage();
        d.addPage(p1); d.addPage(p2);
        PDPageFitDestination fit = new PDPageFitDestination(); fit.setPage(p2);
        link(p1, 700).setDestination(fit);
        link(p1, 670).setDestination(new PDNamedDestination("missing.name"));
        PDActionURI file = new PDActionURI(); file.setURI("missing-pdfbox.pdf"); link(p1, 640).setAction(file);
        PDActionURI web = new PDActionURI(); web.setURI("https://example.com/"); link(p1, 610).setAction(web);
        PDPageXYZDestination xyz = new PDPageXYZDestination(); xyz.setPage(p2); xyz.setTop(700); link(p1, 580).setDestination(xyz);
        d.save(a[0]);
        d.close();
    }
}
