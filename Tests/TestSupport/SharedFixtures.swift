public import Foundation
public import Testing

/// The shared corpus beside the checkout (`../shared/corpus`), read in place and never copied: captured identity
/// provider pages (`idp/`) and SharePoint REST answers (`sp-rest/`), each with a `manifest.json` answer key.
public enum SharedCorpus {
    /// The package root (this file is `Tests/TestSupport/SharedFixtures.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/corpus` beside the package root.
    public static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    /// The captured identity-provider pages.
    public static let identityProviderPages = root.appendingPathComponent("idp")
    /// The captured SharePoint REST answers.
    public static let restResponses = root.appendingPathComponent("sp-rest")

    /// Whether `folder` (one of the corpus's folders) has its manifest.
    public static func isAvailable(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path)
    }

    /// What a test that needs `folder` says when it is absent.
    public static func absentMessage(_ folder: URL) -> Comment {
        let folder = folder.lastPathComponent
        return Comment(
            rawValue: "SKIPPED: the shared corpus is absent (expected ../shared/corpus/\(folder)/manifest.json beside "
                + "the package root)")
    }
}

/// The simulator's default account (`[SimulatedUser].defaults`): signs in with a password and no second factor.
public let aliceEmail = "alice@contoso.test"
/// Alice's password in the simulator (never a real secret; tests grep outputs for it).
public let alicePassword = "Spring2026!"
