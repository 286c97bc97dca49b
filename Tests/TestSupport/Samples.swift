import Foundation

/// The repository's samples/ folder, for every test target.
public enum Samples {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples").path

    public static func path(_ name: String) -> String { folder + "/" + name }

    /// Every sample PDF, sorted.
    public static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pdf") }.sorted()
    }

    /// Samples both libraries can open without a password.
    public static var readable: [String] { all.filter { !["garbage.pdf", "empty.pdf", "encrypted-user.pdf"].contains($0) } }
}
