import Foundation
import Presentation
import Testing

@Suite struct OutputSinkTests {
    /// A temporary file opened for writing; the sink writes to its descriptor, the test reads it back by path.
    final class TemporaryFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("presentation-\(UUID().uuidString)")
            .path
        let descriptor: Int32

        init() {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }

        deinit {
            close(descriptor)
            unlink(path)
        }

        var contents: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<unreadable>" }
    }

    @Test func fileDescriptorSinkBuffersUntilFullOrFlushed() {
        let file = TemporaryFile()
        #expect(file.descriptor >= 0)
        let sink = FileDescriptorSink(fileDescriptor: file.descriptor, bufferCapacity: 8)
        sink.write("abc")
        sink.write(bytes: Array("文".utf8))
        #expect(file.contents == "")
        sink.write("de")
        #expect(file.contents == "abc文de")
        sink.write("f")
        #expect(file.contents == "abc文de")
        sink.flush()
        #expect(file.contents == "abc文def")
        #expect(sink.failure == nil)
    }

    @Test func fileDescriptorSinkFlushesWhenReleased() {
        let file = TemporaryFile()
        do {
            let sink = FileDescriptorSink(fileDescriptor: file.descriptor)
            sink.write("kept until deinit\n")
            #expect(file.contents == "")
        }
        #expect(file.contents == "kept until deinit\n")
    }

    @Test func fileDescriptorSinkRecordsTheFirstFailureAndDropsLaterOutput() {
        let sink = FileDescriptorSink(fileDescriptor: -1, bufferCapacity: 0)
        sink.write("lost")
        #expect(sink.failure == EBADF)
        sink.write("also lost")
        #expect(sink.failure == EBADF)
    }

    @Test func memorySinkCollectsTextAndBytes() {
        let sink = MemorySink()
        sink.write("a")
        sink.write(bytes: [0x62, 0x0A])
        sink.flush()
        #expect(sink.text == "ab\n")
        #expect(sink.bytes == [0x61, 0x62, 0x0A])
        #expect(sink.writeCount == 2)
        sink.reset()
        #expect(sink.text.isEmpty)
    }

    @Test func recordRendererFlushesTheSinkItWasGiven() {
        let file = TemporaryFile()
        let sink = FileDescriptorSink(fileDescriptor: file.descriptor)
        RecordRenderer.render(RecordSet(records: [["a": 1]]), as: .ndjson, to: sink)
        #expect(file.contents == "{\"a\":1}\n")
    }
}
