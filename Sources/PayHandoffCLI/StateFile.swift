#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PayHandoff
import PayHandoffABI

/// The coordinator snapshot on disk for `payhandoff route` / `send`.
///
/// Saving is crash-safe: the new snapshot is written to a temporary file in the same folder,
/// flushed with `fsync`, renamed over the old file (atomic on POSIX file systems) and the folder
/// is synced, so after a crash the file holds either the old or the new snapshot, never half.
enum StateFile {
    /// Reads the snapshot at `path`, or an empty coordinator when the file does not exist.
    /// - Parameters:
    ///   - path: The state file.
    ///   - mustExist: Whether a missing file is an error (a command that looks flows up in it).
    /// - Returns: The coordinator.
    /// - Throws: The core's error for a damaged or newer snapshot; `invalid_argument` when the
    ///   file exists but cannot be read, or is missing and `mustExist`.
    static func load(_ path: String, mustExist: Bool = false) throws(PayHandoffError) -> Coordinator {
        guard let file = fopen(path, "rb") else {
            if errno == ENOENT && !mustExist { return withCodec(Coordinator()) }
            throw PayHandoffError(.invalidArgument, field: "state", "cannot read " + path)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)  // read in chunks; the limit is the parser's
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        // A snapshot may have up to PAYHANDOFF_MAX_SNAPSHOT_BYTES, as payhandoff_coordinator_restore reads.
        return withCodec(try Coordinator(snapshot: JSONText.parse(String(decoding: bytes, as: UTF8.self), parameter: "state",
                                                                  limit: JSONText.maxSnapshotBytes)))
    }

    /// `coordinator` reading JSON text inside answers (Clip's `PAYMENT_RESPONSE`) with cJSON, as
    /// the C ABI's coordinator handles do (the core's own codec refuses every call).
    private static func withCodec(_ coordinator: Coordinator) -> Coordinator {
        var coordinator = coordinator
        coordinator.jsonText = JSONText.codec
        return coordinator
    }

    /// Saves `coordinator`'s snapshot at `path` crash-safely.
    /// - Parameters:
    ///   - coordinator: The coordinator.
    ///   - path: The state file.
    /// - Throws: `invalid_argument` when the file cannot be written (nothing is replaced then).
    static func save(_ coordinator: Coordinator, to path: String) throws(PayHandoffError) {
        let text = JSONText.render(coordinator.snapshot) + "\n"
        let temporary = path + ".tmp-" + String(getpid())
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw PayHandoffError(.invalidArgument, field: "state", "cannot write " + temporary) }
        let bytes = Array(text.utf8)
        var ok = bytes.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
        ok = ok && fsync(descriptor) == 0
        ok = close(descriptor) == 0 && ok
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw PayHandoffError(.invalidArgument, field: "state", "cannot write " + path)
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let folderDescriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// The current time in epoch milliseconds (the CLI is a host: it reads the clock, the core never does).
    static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
