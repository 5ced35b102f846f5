import AuthFlow
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The password file rules, on real files: first line only, private to its owner, a regular file, never empty.
@Suite struct PasswordFileTests {
    let directory = NSTemporaryDirectory() + "spconnect-password-\(UUID().uuidString)"

    func write(_ text: String, mode: Int, name: String = "password") throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func theFirstLineOfAPrivateFileIsThePassword() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try write("s3cret pass\r\nsecond line\n", mode: 0o600)
        #expect(try PasswordFile.read(path).revealedValue() == "s3cret pass")
        let readOnly = try write("only", mode: 0o400, name: "read-only")
        #expect(try PasswordFile.read(readOnly).revealedValue() == "only")
        // A link (as secret mounts use) leads to the file the checks apply to.
        let link = directory + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try PasswordFile.read(link).revealedValue() == "s3cret pass")
    }

    /// `--password-file <(pass show sp)`: the shell hands over the read end of a pipe as `/dev/fd/N`.
    @Test func aPipeIsReadAsItComes() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = Array("from a pipe\nnot this\n".utf8)
        #expect(Glibc.write(ends[1], text, text.count) == text.count)
        close(ends[1])
        #expect(try PasswordFile.read("/dev/fd/\(ends[0])").revealedValue() == "from a pipe")
    }

    /// A named pipe nobody writes to is refused at once, not waited on.
    @Test(.timeLimit(.minutes(1))) func aNamedPipeWithoutAWriterIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: PasswordFile.Failure.empty(path: path)) { try PasswordFile.read(path) }
    }

    @Test func refusalsSayWhatToDo() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let open = try write("pw\n", mode: 0o644)
        #expect(throws: PasswordFile.Failure.readableByOthers(path: open)) { try PasswordFile.read(open) }
        #expect("\(PasswordFile.Failure.readableByOthers(path: open))".contains("chmod 600"))
        let group = try write("pw\n", mode: 0o640, name: "group")
        #expect(throws: PasswordFile.Failure.readableByOthers(path: group)) { try PasswordFile.read(group) }
        let empty = try write("\nsecond\n", mode: 0o600, name: "empty")
        #expect(throws: PasswordFile.Failure.empty(path: empty)) { try PasswordFile.read(empty) }
        #expect(throws: PasswordFile.Failure.notAFile(path: directory)) {
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
            return try PasswordFile.read(directory)
        }
        let missing = directory + "/none"
        #expect {
            try PasswordFile.read(missing)
        } throws: { error in
            guard case .unreadable(let path, let reason) = error as? PasswordFile.Failure else { return false }
            return path == missing && reason.contains("No such file")
        }
    }
}
