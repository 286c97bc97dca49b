// Makes bench/realworld.sh's iText 5 sample (java -cp ITEXT_JAR bench/GenIText.java OUT.pdf): a local goto, one to a
// destination that does not exist, a missing file, the web.
import com.itextpdf.text.*;
import com.itextpdf.text.pdf.*;
import java.io.FileOutputStream;

public class GenIText {
    public static void main(String[] a) throws Exception {
        Document doc = new Document();
        PdfWriter w = PdfWriter.getInstance(doc, new FileOutputStream(a[0]));
        doc.open();
        Paragraph p = new Paragraph();
        p.add(new Chunk("to chapter 2").setLocalGoto("ch2")); p.add(" ");
        p.add(new Chunk("missing anchor").setLocalGoto("nowhere")); p.add(" ");
        p.add(new Chunk("missing file").setAnchor("missing-itext.pdf")); p.add(" ");
        p.add(new Chunk("web").setAnchor("https://example.com/"));
        doc.add(p);
        doc.newPage();
        doc.add(new Paragraph(new Chunk("Chapter 2").setLocalDestination("ch2")));
        doc.close();
    }
}
