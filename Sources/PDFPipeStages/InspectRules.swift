import PDFPipeCore

/// The rules of `inspect`: page geometry and the document's inventory.
extension Rule {
    public static let pagesMixedSizes = Rule(
        "pages.mixed-sizes", severity: .note,
        summary: "the pages differ in size or rotation (breaks 'page = scroll offset / page height' arithmetic)",
        hint: "nothing to fix if intended; the report's layout offsets map scroll positions to pages",
        details:
            #"the pages differ in size or rotation"#, sample: "samples/rotated-cropped.pdf")

    public static let formsPresent = Rule(
        "forms.present", severity: .note, summary: "the document has form fields (AcroForm)",
        hint: "an inventory fact; turn the rule on where forms must not ship", offByDefault: true,
        details:
            #"the document has form fields (turn on under `rules` where forms must not ship)"#,
        sample: .init("Tests/Fixtures/rules/form-javascript.pdf", with: #"{"forms": true}"#))

    public static let attachmentsPresent = Rule(
        "attachments.present", severity: .note, summary: "the document embeds files",
        hint: "an inventory fact; turn the rule on where attachments must not ship", offByDefault: true,
        details:
            #"the document embeds files (turn on where attachments must not ship)"#,
        sample: .init("Tests/Fixtures/rules/attachment.pdf", with: #"{"attachments": true}"#))

    public static let annotationsJavascriptInWidget = Rule(
        "annotations.javascript-in-widget", severity: .note,
        summary: "a form field's widget runs JavaScript (blocked by many viewers)",
        hint: "use plain form actions where one will do",
        details:
            #"a form field's widget runs JavaScript"#,
        sample: .init("Tests/Fixtures/rules/form-javascript.pdf", with: #"{"forms": true}"#))

    public static let pageInvalidRotate = Rule(
        "page.invalid-rotate", severity: .warning,
        summary: "a page's /Rotate is not a multiple of 90, so viewers ignore it",
        hint: "set /Rotate to 0, 90, 180 or 270",
        details:
            #"`/Rotate` is not a multiple of 90 (viewers ignore it)"#,
        example:
            "<< /Type /Page /MediaBox [0 0 612 792] /Rotate 45 >>",
        sample: "Tests/Fixtures/rules/page-invalid-rotate.pdf")

    public static let pageNoMediaBox = Rule(
        "page.no-media-box", severity: .warning,
        summary: "a page has no /MediaBox (not even an inherited one); readers assume US Letter",
        hint: "give the page tree a /MediaBox",
        details:
            #"a page has no `/MediaBox`, not even inherited (readers assume US Letter)"#,
        example:
            "<< /Type /Page /Parent 2 0 R >>   % no /MediaBox here or inherited",
        sample: "Tests/Fixtures/rules/page-no-media-box.pdf")
}
