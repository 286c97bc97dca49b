// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "pdfpipe",
    products: [
        .executable(name: "pdfpipe", targets: ["pdfpipe"]),
        .library(name: "PDFPipeCore", targets: ["PDFPipeCore"]),
        .library(name: "PDFPipeStages", targets: ["PDFPipeStages"]),
        .library(name: "PDFPipeWeb", targets: ["PDFPipeWeb"]),
    ],
    // MuPDF is AGPL-3.0 (pdfpipe and poppler are GPL): it is built in only on request,
    // `swift build --traits MuPDF`, which needs libmupdf-dev (scripts/setup.sh --mupdf).
    traits: [
        .trait(
            name: "MuPDF",
            description:
                "the MuPDF engine for thumbnails and extract-text (engine: \"mupdf\"); AGPL-3.0, see the README")
    ],
    targets: [
        // C libraries, found through pkg-config. Nothing but the headers lives here.
        .systemLibrary(
            name: "CQPDF", pkgConfig: "libqpdf",
            providers: [.apt(["libqpdf-dev"])]),
        .systemLibrary(
            name: "CPoppler", pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        // libcurl behind plain C functions (its setopt/getinfo are variadic), in a .c file.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // JPEG encoding in C: libjpeg's errors are longjmps (its default handler calls exit()).
        .target(name: "CJPEGEncode", linkerSettings: [.linkedLibrary("jpeg")]),
        // Linux calls Swift's Glibc module lacks (renameat2, pipe2, prctl, close_range).
        .target(name: "CSystem"),
        .target(name: "SystemIO", dependencies: ["CSystem"]),
        // MuPDF behind a C shim (its errors are longjmps Swift cannot cross). Without the trait the
        // shim is compiled without MuPDF and says it is not there.
        .target(
            name: "CMuPDF",
            cSettings: [.define("PDFPIPE_MUPDF", .when(traits: ["MuPDF"]))],
            linkerSettings: [
                .linkedLibrary("mupdf", .when(traits: ["MuPDF"])),
                .linkedLibrary("mupdf-third", .when(traits: ["MuPDF"])),
                .linkedLibrary("mujs", .when(traits: ["MuPDF"])), .linkedLibrary("gumbo", .when(traits: ["MuPDF"])),
                .linkedLibrary("openjp2", .when(traits: ["MuPDF"])),
                .linkedLibrary("jbig2dec", .when(traits: ["MuPDF"])),
                .linkedLibrary("freetype", .when(traits: ["MuPDF"])),
                .linkedLibrary("harfbuzz", .when(traits: ["MuPDF"])),
                .linkedLibrary("jpeg", .when(traits: ["MuPDF"])), .linkedLibrary("z", .when(traits: ["MuPDF"])),
                .linkedLibrary("m", .when(traits: ["MuPDF"])),
            ]),
        // pdfpipe's own PDF reader (objects, cross-reference tables and streams, the page tree):
        // pure Swift but for zlib's inflate, with its bounds against decompression bombs.
        .target(name: "PDFReader", dependencies: ["CZlib", "SystemIO"]),
        // The one module that wraps the PDF, image and HTTP libraries.
        .target(
            name: "PDFBridge",
            dependencies: [
                "PDFReader", "CQPDF", "CPoppler", "CZlib", "CJPEGEncode", "CWebP", "CCurl", "CSystem", "CMuPDF",
                "SystemIO",
            ]),
        // Pipeline model, runner, findings, reporters: no C.
        .target(name: "PDFPipeCore", dependencies: ["SystemIO"]),
        // The web check: URI syntax, the run's URL checker (transfers, host pacing, retries, the
        // cache and history) and its options. It knows URLs, not links: what a link means, and the
        // checker of each scheme, are validate-links' (PDFPipeStages).
        .target(name: "PDFPipeWeb", dependencies: ["PDFPipeCore", "PDFBridge", "PDFReader", "SystemIO"]),
        // The stages: core + bridge.
        .target(
            name: "PDFPipeStages", dependencies: ["PDFPipeCore", "PDFPipeWeb", "PDFBridge", "PDFReader", "SystemIO"]),
        // Argument parsing and commands.
        .target(
            name: "PDFPipeCLI", dependencies: ["PDFBridge", "PDFPipeCore", "PDFPipeStages", "PDFPipeWeb", "SystemIO"]),
        .executableTarget(name: "pdfpipe", dependencies: ["PDFPipeCLI", "PDFPipeStages", "SystemIO"]),
        // Writes samples/ (raw PDF syntax; qpdf only to encrypt).
        .executableTarget(name: "pdfpipe-samples", dependencies: ["PDFBridge", "PDFReader", "SystemIO"]),
        // Where the tests find samples/.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "PDFBridgeTests", dependencies: ["PDFBridge", "PDFReader", "SystemIO", "TestSupport", "CJPEGEncode"]),
        .testTarget(name: "PDFPipeCoreTests", dependencies: ["PDFPipeCore", "SystemIO", "TestSupport"]),
        .testTarget(
            name: "PDFPipeStagesTests",
            dependencies: ["PDFPipeStages", "PDFPipeWeb", "PDFBridge", "PDFReader", "PDFPipeCore", "TestSupport"]),
        .testTarget(
            name: "PDFPipeCLITests",
            dependencies: ["PDFPipeCLI", "PDFPipeCore", "PDFPipeStages", "PDFPipeWeb", "PDFBridge", "TestSupport"],
            exclude: ["Golden", "Schemas"]),
    ],
    swiftLanguageModes: [.v6]
)
