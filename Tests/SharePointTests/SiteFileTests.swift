import Foundation
import SPSim
import SharePoint
import Synchronization
import TestSupport
import Testing
import Transport

/// Downloads `url` (of `size` bytes) to `destination` and checks that it streams: the count is right, progress never
/// goes back, and when half of the file had arrived at least a quarter of it was already in the partial file on
/// disk. Returns the progress reports.
private func downloadCheckingItStreams(
    _ url: String, size: Int, from fixture: SiteFixture, to destination: String
) async throws -> ProgressLog {
    let folder = URL(fileURLWithPath: destination).deletingLastPathComponent().path
    let onDiskMidway = Mutex(Int64(-1))
    let progress = ProgressLog()
    let written = try await fixture.site.download(serverRelativeURL: url, to: destination) { value in
        progress.record(value)
        guard value.completedBytes >= Int64(size / 2), onDiskMidway.withLock({ $0 < 0 }) else { return }
        let bytes = partialDownloadBytes(in: folder)
        onDiskMidway.withLock { $0 = bytes }
    }
    #expect(written == Int64(size))
    let midway = onDiskMidway.withLock { $0 }
    #expect(midway >= Int64(size / 4), "only \(midway) bytes were on disk half-way through the download")
    #expect(progress.isMonotonic)
    return progress
}

extension SiteClientTests {
    @Suite struct Files {
        /// spsim's largest file (8 MiB, generated while streaming): byte-identical on disk, progress monotonic, and
        /// streamed: half-way through, the partial file on disk already holds what arrived. (Memory figures are the
        /// benchmark's business; process RSS is shared with the tests running beside this one.)
        @Test func largeDownloadIsStreamedToDisk() async throws {
            let fixture = try SiteFixture(mode: .anonymous)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let destination = folder + "/large.bin"
            let size = 8 * 1024 * 1024

            let progress = try await downloadCheckingItStreams(
                "/Shared Documents/large.bin", size: size, from: fixture, to: destination)
            #expect(progress.all.last?.completedBytes == Int64(size))
            #expect(progress.all.last?.totalBytes == Int64(size))
            #expect(progress.all.count > 2)

            // Byte-identical with the same bytes fetched into memory by Transport directly.
            let direct = try await fixture.client.execute(
                HTTPRequest(
                    url: API.file(serverRelativeUrl: "/Shared Documents/large.bin").value.url(site: fixture.sim.siteURL)
                ))
            #expect(direct.status == 200)
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: destination))
            #expect(onDisk.count == size)
            #expect(onDisk == Data(direct.body))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["large.bin"])
        }

        /// The 50 MiB generated file through `SharePointSite`: every byte equals the simulator's generator (read
        /// back range by range), and it is streamed: half-way through, the partial file on disk already holds a good
        /// share of what arrived.
        @Test func fiftyMegabyteDownloadIsByteIdenticalAndStreamed() async throws {
            let fixture = try SiteFixture(mode: .anonymous)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let destination = folder + "/large-50MB.bin"
            let size = 52_428_800
            #expect(fixture.sim.fileLength(serverRelativeURL: Simulator.largeFileURL) == size)

            let progress = try await downloadCheckingItStreams(
                Simulator.largeFileURL, size: size, from: fixture, to: destination)
            #expect(progress.all.last == FileProgress(completedBytes: Int64(size), totalBytes: Int64(size)))

            let attributes = try FileManager.default.attributesOfItem(atPath: destination)
            #expect(attributes[.size] as? Int64 == Int64(size))
            let difference = try firstDifference(
                ofFile: destination, from: fixture.sim, serverRelativeURL: Simulator.largeFileURL)
            #expect(difference == nil, "the download differs from the generator at byte \(difference ?? -1)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["large-50MB.bin"])
        }

        /// The byte comparison above can fail: one changed byte in the middle is found at its offset.
        @Test func byteComparisonFindsAChangedByte() async throws {
            let fixture = try SiteFixture(mode: .anonymous)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/large.bin"
            let url = "/Shared Documents/large.bin"
            try await fixture.site.download(serverRelativeURL: url, to: path)
            #expect(try firstDifference(ofFile: path, from: fixture.sim, serverRelativeURL: url) == nil)

            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.seek(toOffset: 3_000_001)
            let original = try #require(try handle.read(upToCount: 1)?.first)
            try handle.seek(toOffset: 3_000_001)
            try handle.write(contentsOf: [original == 0x61 ? 0x62 : 0x61])
            try handle.truncate(atOffset: 5_000_000)
            #expect(try firstDifference(ofFile: path, from: fixture.sim, serverRelativeURL: url) == 3_000_001)

            // Put the byte back: the truncated copy now differs where it ends.
            try handle.seek(toOffset: 3_000_001)
            try handle.write(contentsOf: [original])
            try handle.close()
            #expect(try firstDifference(ofFile: path, from: fixture.sim, serverRelativeURL: url) == 5_000_000)
        }

        @Test func failedDownloadsLeaveNoFile() async throws {
            var faults = FaultSpec()
            faults.dropPath = "large.bin"
            let fixture = try SiteFixture(mode: .anonymous, faults: faults)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }

            let cut = await sharePointError {
                try await fixture.site.download(
                    serverRelativeURL: "/Shared Documents/large.bin", to: folder + "/large.bin")
            }
            guard case .transport = cut?.kind else {
                Issue.record("expected a transport error, got \(String(describing: cut))")
                return
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)

            // An existing file is left as it was.
            let existing = folder + "/keep.bin"
            try Data("old content".utf8).write(to: URL(fileURLWithPath: existing))
            _ = await sharePointError {
                try await fixture.site.download(serverRelativeURL: "/Shared Documents/large.bin", to: existing)
            }
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "old content")

            let missing = await sharePointError {
                try await fixture.site.download(
                    serverRelativeURL: "/Shared Documents/none.txt", to: folder + "/none.txt")
            }
            #expect(missing?.kind == .fileNotFound)
            #expect(missing?.message == "The file /Shared Documents/none.txt does not exist.")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keep.bin"])

            let unwritable = await sharePointError {
                try await fixture.site.download(
                    serverRelativeURL: "/Shared Documents/Welcome.txt", to: folder + "/no/such/dir/w.txt")
            }
            // A local error, named as one: the folder that is not there and the system's reason.
            #expect(unwritable?.kind == .localFile)
            #expect(
                unwritable?.description.contains(folder + "/no/such/dir") == true, "\(String(describing: unwritable))")
            #expect(unwritable?.description.contains("No such file or directory") == true)
        }

        @Test(arguments: [ODataFlavor.noMetadata, .verbose])
        func chunkedUploadRoundTrips(flavor: ODataFlavor) async throws {
            let fixture = try SiteFixture(mode: .basic, flavor: flavor)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let source = folder + "/source.bin"
            let size = 3 * 1024 * 1024 + 12_345
            let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
            let content = try #require(try random.read(upToCount: size))
            try random.close()
            #expect(content.count == size)
            try content.write(to: URL(fileURLWithPath: source))

            let progress = ProgressLog()
            let file = try await fixture.site.upload(
                file: source, toFolder: "/Shared Documents", as: "round trip.bin", chunkSize: 1024 * 1024
            ) { progress.record($0) }
            #expect(file.name == "round trip.bin")
            #expect(file.length == Int64(size))
            #expect(file.serverRelativeUrl == "/Shared Documents/round trip.bin")
            #expect(progress.isMonotonic)
            #expect(progress.all.last == FileProgress(completedBytes: Int64(size), totalBytes: Int64(size)))
            #expect(progress.all.contains { $0.completedBytes > 1024 * 1024 && $0.completedBytes < Int64(size) })

            let steps = fixture.sim.requestLog().filter { $0.method == "POST" }.map { request -> String in
                let path = request.path.lowercased()
                for step in ["startupload", "continueupload", "finishupload", "files/add", "contextinfo"]
                where path.contains(step) {
                    return step
                }
                return path
            }
            #expect(
                steps == [
                    "contextinfo", "files/add", "startupload", "continueupload", "continueupload", "finishupload",
                ])
            let offsets = fixture.logged("upload(").map(\.path)
            #expect(offsets[1].contains("fileOffset=1048576"))
            #expect(offsets[3].contains("fileOffset=3145728"))

            let back = folder + "/back.bin"
            try await fixture.site.download(serverRelativeURL: "/Shared Documents/round trip.bin", to: back)
            #expect(try Data(contentsOf: URL(fileURLWithPath: back)) == content)
        }

        /// A chunk whose answer never arrives: the upload session is cancelled and the transport error surfaced.
        @Test func failedChunkCancelsTheUploadSession() async throws {
            var faults = FaultSpec()
            faults.dropPath = "continueupload"
            let fixture = try SiteFixture(mode: .basic, faults: faults)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let source = folder + "/big.bin"
            try Data(repeating: 7, count: 300_000).write(to: URL(fileURLWithPath: source))

            let error = await sharePointError {
                _ = try await fixture.site.upload(file: source, toFolder: "/Shared Documents", chunkSize: 100_000)
            }
            guard case .transport = error?.kind else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
            #expect(error?.url?.contains("ContinueUpload(") == true)
            let steps = fixture.logged("upload(", method: "POST").map { $0.path.lowercased() }
            #expect(steps.count == 3)
            #expect(steps.last?.contains("/cancelupload(uploadid=guid'") == true)
            #expect(fixture.logged("finishupload").isEmpty)
        }

        /// Names SharePoint's `…Url('…')` literals decode once more (protocol §6.3): uploaded with `add(url=…)`,
        /// listed, read back by server-relative URL, in the single request and the chunked paths alike.
        @Test func namesWithPercentHashQuoteAndCommaRoundTrip() async throws {
            let fixture = try SiteFixture(mode: .basic)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let source = folder + "/source.txt"
            for (index, name) in ["50%.txt", "a#b.txt", "a, b.txt", "x%25y.txt", "O'Neil, 100% #1.txt"].enumerated() {
                let content = Data("content \(index) of \(name)\n".utf8)
                try content.write(to: URL(fileURLWithPath: source))
                let chunk = index.isMultiple(of: 2) ? 10 << 20 : 8
                let uploaded = try await fixture.site.upload(
                    file: source, toFolder: "/Shared Documents", as: name, chunkSize: chunk)
                #expect(uploaded.name == name)
                #expect(uploaded.length == Int64(content.count))
                let back = folder + "/back-\(index)"
                try await fixture.site.download(serverRelativeURL: "/Shared Documents/" + name, to: back)
                #expect(FileManager.default.contents(atPath: back) == content, "\(name)")
                let described = try await fixture.site.file(serverRelativeURL: "/Shared Documents/" + name)
                #expect(described.name == name)
            }
        }

        @Test func smallUploadIsOneRequestAndOverwriteIsHonoured() async throws {
            let fixture = try SiteFixture(mode: .basic)
            defer { fixture.sim.stop() }
            let folder = try temporaryDirectory("client")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let source = folder + "/notes.txt"
            try Data("first version\n".utf8).write(to: URL(fileURLWithPath: source))

            let progress = ProgressLog()
            let file = try await fixture.site.upload(file: source, toFolder: "/Shared Documents") {
                progress.record($0)
            }
            #expect(file.name == "notes.txt")
            #expect(file.length == 14)
            #expect(progress.isMonotonic)
            #expect(progress.all.last?.completedBytes == 14)
            #expect(fixture.logged("files/add", method: "POST").count == 1)
            #expect(fixture.logged("upload(").isEmpty)

            let refused = await sharePointError {
                _ = try await fixture.site.upload(file: source, toFolder: "/Shared Documents", overwrite: false)
            }
            #expect(refused?.status == 400)
            #expect(refused?.message?.contains("already exists") == true)

            try Data("second\n".utf8).write(to: URL(fileURLWithPath: source))
            let replaced = try await fixture.site.upload(file: source, toFolder: "/Shared Documents")
            #expect(replaced.length == 7)
            let back = folder + "/back.txt"
            try await fixture.site.download(serverRelativeURL: "/Shared Documents/notes.txt", to: back)
            #expect(try String(contentsOfFile: back, encoding: .utf8) == "second\n")

            let missing = await sharePointError {
                _ = try await fixture.site.upload(file: folder + "/absent.txt", toFolder: "/Shared Documents")
            }
            #expect(missing?.kind == .localFile)
        }
    }
}
