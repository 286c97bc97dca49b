import PDFPipeCore

/// The rules of `thumbnails`.
extension Rule {
    public static let pageRenderIncomplete = Rule(
        "page.render-incomplete", severity: .warning,
        summary:
            "the page was drawn with parts missing: the engine could not decode an image or a stream on it (a JPX, JBIG2 or JPEG image, an unknown filter); viewers that can decode it show what the thumbnail lacks",
        hint: "re-export the images in a common format (JPEG, Flate), or check the file for damage",
        sample: "Tests/Fixtures/rules/image-undecodable.pdf")
}
