#!/usr/bin/env bash
# Real-world accuracy: the link audit on PDFs nobody here wrote, judged against PDFium and MuPDF.
#
#   bench/realworld.sh [--no-fetch]
#
# Builds a corpus in bench/.cache/realworld:
#   debian/    the PDFs of Debian documentation packages (pdfTeX/LuaTeX/XeTeX manuals, R's Texinfo
#              manuals, groff's own documentation, …), as shipped;
#   generated/ small documents made with other producers, each with deliberate breaks listed in
#              generated/expected.json: Chromium (print to PDF), groff (gropdf), Ghostscript
#              (pdfmark), ReportLab, wkhtmltopdf, Apache FOP, cairo, LibreOffice, htmldoc,
#              Asciidoctor PDF.
# Then runs `pdfpipe run pipelines/link-audit.json` (offline) over it and bench/realworld_compare.py,
# which prints the findings per rule and severity, every internal link whose target page differs
# from PDFium's (pypdfium2) or MuPDF's (PyMuPDF), and for the generated files the deliberate breaks
# found and missed and any finding that is not one of them (a false alarm).
# The unseen corpus (issue 29) adds debian-nontex/ (FOP, ReportLab, Ghostscript, cairo, matplotlib,
# pdf.js's example), the test files of four more PyPI sdists, and generated files from fpdf2,
# WeasyPrint, Typst, PDFBox and iText.
# Peers (for comparison only): pip install pymupdf pypdfium2 reportlab fpdf2 weasyprint typst; apt-get install groff ghostscript chromium wkhtmltopdf fop python3-cairo libreoffice-writer-nogui htmldoc ruby-asciidoctor-pdf libpdfbox2-java libitext5-java.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=bench/.cache/realworld
mkdir -p "$corpus/debian" "$corpus/generated"

if [ "${1:-}" != "--no-fetch" ]; then
  python3 -c 'import pymupdf, pypdfium2, reportlab' 2>/dev/null || pip install -q --break-system-packages pymupdf pypdfium2 reportlab 2>/dev/null || pip install -q pymupdf pypdfium2 reportlab
  # groff-base lacks the pdf device (gropdf): that is the groff package.
  echo | groff -Tpdf >/dev/null 2>&1 || apt-get install -y -qq groff >/dev/null
  command -v gs >/dev/null || apt-get install -y -qq ghostscript >/dev/null
  command -v chromium >/dev/null || apt-get install -y -qq chromium >/dev/null
  command -v wkhtmltopdf >/dev/null || apt-get install -y -qq wkhtmltopdf >/dev/null
  command -v fop >/dev/null || apt-get install -y -qq fop >/dev/null
  /usr/bin/python3 -c 'import cairo' 2>/dev/null || apt-get install -y -qq python3-cairo >/dev/null
  command -v soffice >/dev/null || apt-get install -y -qq --no-install-recommends libreoffice-writer-nogui >/dev/null
  command -v htmldoc >/dev/null || apt-get install -y -qq --no-install-recommends htmldoc >/dev/null
  command -v asciidoctor-pdf >/dev/null || apt-get install -y -qq --no-install-recommends ruby-asciidoctor-pdf >/dev/null
  for pkg in texlive-latex-recommended-doc texlive-latex-base-doc r-doc-pdf groff; do
    [ -d "$corpus/debian/$pkg" ] && continue
    (cd "$corpus" && apt-get download "$pkg" >/dev/null 2>&1 && dpkg-deb -x "$pkg"_*.deb "x-$pkg" && rm -f "$pkg"_*.deb)
    # The documentation tree as installed (relative links between its files stay valid); Debian
    # links some manuals into other trees: -L copies what the links point at.
    mkdir -p "$corpus/debian/$pkg"
    cp -rL "$corpus/x-$pkg/usr/share/doc/." "$corpus/debian/$pkg/" 2>/dev/null || true
    rm -rf "$corpus/x-$pkg"
  done
  # PyPI sdists of PDF libraries ship their test files: PDFs from Quartz, Acrobat, Word, iText,
  # Photoshop, PDFpen, OCRmyPDF, img2pdf, … (many deliberately broken: encrypted, damaged, invalid
  # destinations). Pinned; their judged findings are in bench/realworld-pypi-judged.json.
  for spec in \
    "pikepdf 10.18.0 2e/5c/db56403f493bae2e35a0d5d2c9ad358b011f142b760282698a9f2732941e/pikepdf-10.18.0.tar.gz" \
    "pypdf 7.1.1 96/5f/f41984a8150ec37c6ee50fa6fa1868d065337b65ba510a155848b2ce0b62/pypdf-7.1.1.tar.gz"; do
    read -r name version url <<<"$spec"
    [ -d "$corpus/pypi/$name" ] && continue
    mkdir -p "$corpus/pypi/$name" "$corpus/x-$name"
    curl -sSfL "https://files.pythonhosted.org/packages/$url" | tar xz -C "$corpus/x-$name"
    (cd "$corpus/x-$name/$name-$version" && find . -iname '*.pdf' -exec cp --parents {} "../../pypi/$name/" \;)
    rm -rf "$corpus/x-$name"
  done
  # The unseen corpus (issue 29): non-TeX producers this benchmark had not used before. PyPI sdists
  # that ship real-world test files (OCRmyPDF: Acrobat, Quartz, LibreOffice, Photoshop, tiff2pdf,
  # Ghostscript; tabula-py; img2pdf; PyPDF2), fetched with pip, and Debian packages whose PDFs come
  # from FOP, ReportLab, Ghostscript, cairo, matplotlib and pdf.js's own example.
  for spec in ocrmypdf==16.10.4 tabula-py==2.9.3 img2pdf==0.5.1 PyPDF2==1.26.0; do
    name=${spec%%==*}
    [ -d "$corpus/pypi/$name" ] && continue
    mkdir -p "$corpus/pypi/$name" "$corpus/x-$name"
    pip download -q --no-deps --no-binary :all: -d "$corpus/x-$name" "$spec" >/dev/null 2>&1
    tar xzf "$corpus/x-$name"/*.tar.gz -C "$corpus/x-$name"
    (cd "$corpus/x-$name"/*/ && find . -iname '*.pdf' -exec cp --parents {} "../../pypi/$name/" \;)
    rm -rf "$corpus/x-$name"
  done
  for pkg in fop-doc python-reportlab-doc ghostscript-doc cups-filters python-matplotlib-data libjs-pdf; do
    [ -d "$corpus/debian-nontex/$pkg" ] && continue
    (cd "$corpus" && apt-get download "$pkg" >/dev/null 2>&1 && dpkg-deb -x "$pkg"_*.deb "x-$pkg" && rm -f "$pkg"_*.deb)
    mkdir -p "$corpus/debian-nontex/$pkg"
    (cd "$corpus/x-$pkg" && find . -iname '*.pdf' -exec cp --parents {} "../debian-nontex/$pkg/" \;)
    rm -rf "$corpus/x-$pkg"
  done
fi

gen="$corpus/generated"
cp samples/links-internal.pdf "$gen/target.pdf"
# Chromium: an internal anchor, a missing anchor (Chromium drops that link), a missing file, a PDF
# fragment past the end, a web link.
cat > "$gen/chromium.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>Chromium</title></head><body>
<h1>Contents</h1><p><a href="#ch2">Chapter 2</a> <a href="#nowhere">missing anchor</a>
<a href="missing.pdf">missing file</a> <a href="target.pdf#page=9">page 9 of 4</a> <a href="https://example.com/">web</a></p>
<div style="page-break-before: always"></div><h2 id="ch2">Chapter 2</h2><p>Text.</p></body></html>
HTML
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$PWD/$gen/chromium.pdf" "file://$PWD/$gen/chromium.html" >/dev/null 2>&1 || true
# groff (gropdf): a link to a destination that exists, one to a destination that does not.
printf '%s\n' '.pdfhref O 1 Start' '.pdfhref M good' 'Start.' '.pdfhref L -D good -- a good link' '.pdfhref L -D missing.dest -- a broken link' \
  '.bp' 'Page two.' > "$gen/groff.ms"
groff -Tpdf -ms "$gen/groff.ms" > "$gen/groff.pdf" 2>/dev/null || rm -f "$gen/groff.pdf"
# Ghostscript: pdfmark links to a named destination that exists and one that does not.
cat > "$gen/gs.ps" <<'PS'
%!PS
[ /Dest /there /View [/XYZ null null null] /DEST pdfmark
/Helvetica findfont 12 scalefont setfont 72 700 moveto (Page one) show
[ /Rect [72 650 200 670] /Border [0 0 1] /Dest /there /Subtype /Link /ANN pdfmark
[ /Rect [72 620 200 640] /Border [0 0 1] /Dest /not.there /Subtype /Link /ANN pdfmark
showpage
72 700 moveto (Page two) show showpage
PS
gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -sOutputFile="$gen/ghostscript.pdf" "$gen/gs.ps" >/dev/null 2>&1 || rm -f "$gen/ghostscript.pdf"
# ReportLab (which refuses a link to a destination it does not define): a link to a bookmark, and
# a URI link to a file that does not exist.
python3 - "$gen/reportlab.pdf" <<'PY'
import sys
from reportlab.pdfgen import canvas
c = canvas.Canvas(sys.argv[1])
c.drawString(72, 750, "Page one"); c.linkAbsolute("to two", "two", Rect=(72, 700, 200, 720))
c.linkURL("missing-chapter.pdf", (72, 660, 200, 680)); c.showPage()
c.bookmarkPage("two"); c.drawString(72, 750, "Page two"); c.showPage(); c.save()
PY
[ -s "$gen/reportlab.pdf" ] || rm -f "$gen/reportlab.pdf"
# wkhtmltopdf (Debian's, unpatched Qt): the same page; every link but the web one becomes a file:
# URI of this machine, the internal anchors included (the one to #nowhere too).
cp "$gen/chromium.html" "$gen/wk.html"
wkhtmltopdf -q --enable-local-file-access "$gen/wk.html" "$gen/wkhtmltopdf.pdf" >/dev/null 2>&1 || rm -f "$gen/wkhtmltopdf.pdf"
# Apache FOP: an internal link and a bookmark, a link to a missing file (FOP writes GoToR), the web.
cat > "$gen/fop.fo" <<'FO'
<?xml version="1.0" encoding="UTF-8"?>
<fo:root xmlns:fo="http://www.w3.org/1999/XSL/Format">
 <fo:layout-master-set><fo:simple-page-master master-name="p" page-width="210mm" page-height="297mm" margin="20mm"><fo:region-body/></fo:simple-page-master></fo:layout-master-set>
 <fo:bookmark-tree><fo:bookmark internal-destination="ch2"><fo:bookmark-title>Chapter 2</fo:bookmark-title></fo:bookmark></fo:bookmark-tree>
 <fo:page-sequence master-reference="p"><fo:flow flow-name="xsl-region-body">
  <fo:block>Contents: <fo:basic-link internal-destination="ch2">Chapter 2</fo:basic-link>,
   <fo:basic-link external-destination="url(missing.pdf)">a missing file</fo:basic-link>,
   <fo:basic-link external-destination="url(https://example.com/)">web</fo:basic-link></fo:block>
  <fo:block break-before="page" id="ch2">Chapter 2</fo:block>
 </fo:flow></fo:page-sequence></fo:root>
FO
fop -q "$gen/fop.fo" "$gen/fop.pdf" >/dev/null 2>&1 || rm -f "$gen/fop.pdf"
# cairo (1.16, tagged PDF): a link to a destination it defines, one to a name it does not, a file
# that does not exist. (cairo 1.16 also writes wrong xref offsets for tagged PDFs: pdf.damaged.)
/usr/bin/python3 - "$gen/cairo.pdf" <<'PY'
import sys, cairo
s = cairo.PDFSurface(sys.argv[1], 300, 300); c = cairo.Context(s)
for dest, y in (("dest='two'", 80), ("dest='nowhere'", 120), ("uri='missing.pdf'", 160)):
    c.tag_begin(cairo.TAG_LINK, dest); c.move_to(20, y); c.show_text(dest); c.tag_end(cairo.TAG_LINK)
c.show_page()
c.tag_begin(cairo.TAG_DEST, "name='two'"); c.move_to(20, 40); c.show_text("page two"); c.tag_end(cairo.TAG_DEST)
c.show_page(); s.finish()
PY
# LibreOffice Writer (headless, from a flat ODT): a link to a bookmark, one to a bookmark that does
# not exist (LibreOffice drops it), a relative link to a missing file, the web.
cat > "$gen/libreoffice.fodt" <<'ODT'
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:body><office:text>
  <text:h text:outline-level="1">Contents</text:h>
  <text:p><text:a xlink:type="simple" xlink:href="#chapter2">Chapter 2</text:a></text:p>
  <text:p><text:a xlink:type="simple" xlink:href="#nowhere">a missing bookmark</text:a></text:p>
  <text:p><text:a xlink:type="simple" xlink:href="missing.pdf">a missing file</text:a></text:p>
  <text:p><text:a xlink:type="simple" xlink:href="https://example.com/">the web</text:a></text:p>
  <text:h text:outline-level="1"><text:bookmark text:name="chapter2"/>Chapter 2</text:h>
 </office:text></office:body></office:document>
ODT
soffice -env:UserInstallation="file:///tmp/pdfpipe-lo-profile" --headless --convert-to pdf --outdir "$gen" "$gen/libreoffice.fodt" >/dev/null 2>&1 || rm -f "$gen/libreoffice.pdf"
# htmldoc: links to other HTML pages become Launch actions (one to a page that exists, with its
# anchor; one to a missing page), and a link to a missing anchor a Launch of '#nowhere'.
cat > "$gen/htmldoc.html" <<'HTML'
<html><head><title>htmldoc</title></head><body>
<h1 id="intro">Intro</h1><p><a href="#ch2">Chapter 2</a> <a href="#nowhere">missing anchor</a> <a href="other.html#part">another page</a>
<a href="missing.html#x">missing page</a> <a href="https://example.com/">web</a></p>
<!-- PAGE BREAK -->
<h1 id="ch2">Chapter 2</h1><p>Text.</p></body></html>
HTML
printf '<html><body><h1 id="part">Part</h1></body></html>\n' > "$gen/other.html"
(cd "$gen" && htmldoc --webpage -f htmldoc.pdf htmldoc.html >/dev/null 2>&1) || rm -f "$gen/htmldoc.pdf"
# Asciidoctor PDF (Prawn): a cross reference, one to an id that does not exist, a missing file, the web.
printf '%s\n' '= Asciidoctor' ':doctype: book' '' '== Contents' '' \
  '<<ch2,Chapter 2>>, <<nowhere,a missing anchor>>, link:missing.pdf[a missing file], https://example.com/[the web]' '' \
  '[#ch2]' '== Chapter 2' '' 'Text.' > "$gen/asciidoctor.adoc"
asciidoctor-pdf "$gen/asciidoctor.adoc" -o "$gen/asciidoctor.pdf" >/dev/null 2>&1 || rm -f "$gen/asciidoctor.pdf"
# The unseen producers (issue 29): fpdf2, WeasyPrint, Typst (Python packages), PDFBox 2 and iText 5
# (Debian's jars, through a few lines of Java), each with deliberate breaks. WeasyPrint drops a link
# to a missing anchor (as Chromium does) and writes file: URIs with this machine's absolute paths;
# Typst refuses a missing label; iText names a missing local destination 'invalid_NAME'.
python3 -c 'import fpdf, weasyprint, typst' 2>/dev/null || pip install -q fpdf2 weasyprint typst >/dev/null 2>&1 || true
python3 - "$PWD/$gen" <<'PY' || true
import os, sys
out = sys.argv[1]
try:
    from fpdf import FPDF
    pdf = FPDF(); pdf.add_page(); pdf.set_font("helvetica", size=12)
    two = pdf.add_link()
    for text, link in (("to page two", two), ("missing file", "missing-fpdf.pdf"), ("page 9 of 4", "target.pdf#page=9"), ("web", "https://example.com/")):
        pdf.cell(60, 10, text, link=link, new_x="LMARGIN", new_y="NEXT")
    pdf.start_section("Chapter 1"); pdf.add_page(); pdf.set_link(two); pdf.cell(60, 10, "page two"); pdf.start_section("Chapter 2")
    pdf.output(os.path.join(out, "fpdf2.pdf"))
except Exception as e:
    print("fpdf2:", e)
try:
    from weasyprint import HTML
    HTML(string='<html><body><h1>Contents</h1><p><a href="#ch2">Chapter 2</a> <a href="#nowhere">missing anchor</a> '
         '<a href="missing-weasy.pdf">missing file</a> <a href="target.pdf#page=9">page 9 of 4</a> <a href="https://example.com/">web</a></p>'
         '<h2 id="ch2" style="break-before: page">Chapter 2</h2><p>Text.</p></body></html>', base_url=out + "/").write_pdf(os.path.join(out, "weasyprint.pdf"))
except Exception as e:
    print("weasyprint:", e)
try:
    import typst
    open(os.path.join(out, "typst.typ"), "w").write('= Contents\n#link(<ch2>)[Chapter 2], #link("missing-typst.pdf")[missing file], #link("https://example.com/")[web]\n#pagebreak()\n= Chapter 2 <ch2>\nText.\n')
    typst.compile(os.path.join(out, "typst.typ"), output=os.path.join(out, "typst.pdf"))
except Exception as e:
    print("typst:", e)
PY
[ -f /usr/share/java/pdfbox2.jar ] || apt-get install -y -qq libpdfbox2-java libitext5-java >/dev/null
jcp=/usr/share/java/pdfbox2.jar:/usr/share/java/fontbox2.jar:/usr/share/java/commons-logging.jar:/usr/share/java/itext5.jar
java -cp "$jcp" bench/GenPDFBox.java "$gen/pdfbox.pdf" >/dev/null 2>&1 || rm -f "$gen/pdfbox.pdf"
java -cp "$jcp" bench/GenIText.java "$gen/itext.pdf" >/dev/null 2>&1 || rm -f "$gen/itext.pdf"
cat > "$gen/expected.json" <<'JSON'
{
  "chromium.pdf": ["uri.absolute-file", "uri.absolute-file", "uri.file-missing", "uri.fragment-missing"],
  "groff.pdf": ["dest.name-not-found"],
  "ghostscript.pdf": ["dest.name-not-found"],
  "reportlab.pdf": ["uri.file-missing"],
  "wkhtmltopdf.pdf": ["uri.absolute-file", "uri.absolute-file", "uri.absolute-file", "uri.absolute-file", "uri.file-missing", "uri.fragment-missing"],
  "fop.pdf": ["gotor.file-missing"],
  "libreoffice.pdf": ["uri.file-missing"],
  "htmldoc.pdf": ["action.launch", "action.launch", "action.launch", "action.launch-target-missing", "action.launch-target-missing"],
  "asciidoctor.pdf": ["dest.name-not-found", "uri.file-missing"],
  "cairo.pdf": ["dest.name-not-found", "uri.file-missing", "pdf.damaged"],
  "fpdf2.pdf": ["uri.file-missing", "uri.fragment-missing"],
  "weasyprint.pdf": ["uri.absolute-file", "uri.absolute-file", "uri.file-missing", "uri.fragment-missing"],
  "typst.pdf": ["uri.file-missing"],
  "pdfbox.pdf": ["dest.name-not-found", "uri.file-missing"],
  "itext.pdf": ["dest.name-not-found", "uri.file-missing"],
  "target.pdf": []
}
JSON

swift build -c release --product pdfpipe >/dev/null
out=/tmp/pdfpipe-realworld
rm -rf "$out"
/usr/bin/time -f "pdfpipe: %e s, %M KB" .build/release/pdfpipe run pipelines/link-audit.json "$corpus" --offline --out "$out" --jobs 2 --quiet --fail-on never
python3 bench/realworld_compare.py "$out/report.json" "$corpus"
