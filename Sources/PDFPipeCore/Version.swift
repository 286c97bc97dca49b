/// The tool's version, as reports, the User-Agent and `pdfpipe --version` show it. The one place it
/// is written: `scripts/version.sh` reads it for the packages (.deb, image, release).
public enum PDFPipeVersion {
    public static let string = "0.1.0"
}
