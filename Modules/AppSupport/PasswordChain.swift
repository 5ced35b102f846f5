package import AuthFlow
import Foundation
import Keyring
package import Transport

/// Where an app takes a saved profile's password from when it has to sign in again: one ordered chain, the same for
/// `spconnect`'s renewals, the `renewal:` line of `spconnect status`, `login` without a password flag, and the
/// status app (decision 0013). In order, the first source that is set is the one used:
///
/// 1. `SPCONNECT_PASSWORD`;
/// 2. `SPCONNECT_PASSWORD_FILE` (its first line; refused when others can read it);
/// 3. the login's `--password-command` (kept in the session), else `SPCONNECT_PASSWORD_COMMAND`;
/// 4. the keyring, when the login saved it there (`--save-password`);
/// 5. a prompt, when the app has a terminal to ask on.
///
/// A source that is set but gives no password ends the chain with its reason (a later source is not tried behind
/// the user's back), except that a terminal is still asked. What is set is read from the session and the
/// environment without running anything, so ``first`` can be shown before any renewal.
package struct PasswordChain: Sendable {
    /// One source of the chain.
    package enum Source: Equatable, Sendable, CustomStringConvertible {
        case environment
        case file(path: String)
        case loginCommand
        case environmentCommand
        case keyring
        case prompt

        /// The source as `status` names it (a command is named, never quoted: its words can hold a secret).
        package var description: String {
            switch self {
            case .environment: return "SPCONNECT_PASSWORD"
            case .file(let path): return "SPCONNECT_PASSWORD_FILE (\(path))"
            case .loginCommand: return "the login's password command"
            case .environmentCommand: return "SPCONNECT_PASSWORD_COMMAND"
            case .keyring: return "the keyring (saved by login --save-password)"
            case .prompt: return "a prompt (this is a terminal)"
            }
        }
    }

    /// The password, or why the source that was set gave none.
    package enum Outcome: Sendable {
        case password(Secret, from: Source)
        case failed(Source, reason: String)
        /// No source is set (and no terminal to ask on).
        case none
    }

    /// The sources that are set, in the chain's order.
    package let sources: [Source]
    private let environment: [String: String]
    private let command: String?
    private let keyringEntry: KeyringEntry?

    /// The chain for `session` (nil: a first login, which has no saved command or keyring entry yet), reading the
    /// environment `environment`; `terminal`: whether the app may prompt.
    package init(session: Session?, environment: [String: String], terminal: Bool) {
        self.environment = environment
        let set = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var sources: [Source] = []
        if set("SPCONNECT_PASSWORD") != nil { sources.append(.environment) }
        if let path = set("SPCONNECT_PASSWORD_FILE") { sources.append(.file(path: path)) }
        if let command = session?.renewalPasswordSource.command {
            sources.append(.loginCommand)
            self.command = command
        } else if let command = set("SPCONNECT_PASSWORD_COMMAND") {
            sources.append(.environmentCommand)
            self.command = command
        } else {
            self.command = nil
        }
        if let session, session.renewalPasswordSource == .keyring,
            let entry = KeyringEntry(site: session.siteURL, user: session.user)
        {
            sources.append(.keyring)
            keyringEntry = entry
        } else {
            keyringEntry = nil
        }
        if terminal { sources.append(.prompt) }
        self.sources = sources
    }

    /// The source a sign-in would take the password from, nil when none is set.
    package var first: Source? { sources.first }

    /// Whether a password could come from somewhere other than a prompt.
    package var hasUnattendedSource: Bool { sources.contains { $0 != .prompt } }

    /// The password from the first source that is set (the prompt asked through `ask` when it is the one, or when
    /// the source that was set gave none). Runs a command or asks the keyring on the calling thread, bounded by
    /// their own time limits. A failure's reason is a clause without the source's name (`it exited with status 1`).
    package func password(ask: () -> Secret?) -> Outcome {
        guard let source = first else { return .none }
        if source == .prompt {
            return ask().map { .password($0, from: .prompt) } ?? .failed(.prompt, reason: "no password was entered")
        }
        let outcome = resolve(source)
        if case .failed = outcome, sources.contains(.prompt), let typed = ask() {
            return .password(typed, from: .prompt)
        }
        return outcome
    }

    private func resolve(_ source: Source) -> Outcome {
        switch source {
        case .environment:
            return .password(Secret(environment["SPCONNECT_PASSWORD"] ?? ""), from: source)
        case .file(let path):
            do {
                return .password(try PasswordFile.read(path), from: source)
            } catch {
                return .failed(source, reason: error.description)
            }
        case .loginCommand, .environmentCommand:
            switch PasswordCommand.run(command ?? "") {
            case .success(let secret): return .password(secret, from: source)
            case .failure(let failure): return .failed(source, reason: failure.description)
            }
        case .keyring:
            guard let keyringEntry else { return .failed(source, reason: "the session names no keyring entry") }
            do {
                return .password(
                    try Keyring(environment: environment).blockingPassword(for: keyringEntry), from: source)
            } catch {
                return .failed(source, reason: error.description)
            }
        case .prompt:
            return .failed(source, reason: "no password was entered")
        }
    }
}
