import Foundation

/// Reading the app's own small files (state, cache, settings) so that nothing put in their place
/// can hold the app up: a FIFO, a device or a socket is not read (opened without blocking, then
/// refused), and a file larger than asked for is not read whole.
public enum RegularFile {
    /// The bytes of the regular file at `url` (a symbolic link to one counts), at most
    /// `maxBytes` of them; nil when there is none, it is not a regular file, or it is larger.
    public static func read(_ url: URL, maxBytes: Int) -> Data? {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maxBytes else { return nil }
        // Room for the size it has, and a byte to see it is no larger (/proc's files say 0: the limit).
        var data = Data(count: info.st_size > 0 ? Int(info.st_size) + 1 : maxBytes + 1)
        let count = data.withUnsafeMutableBytes { buffer -> Int in
            var total = 0
            while total < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                total += n
            }
            return total
        }
        guard count <= maxBytes, count < data.count else { return nil }  // larger than allowed, or growing
        return data.prefix(count)
    }
}
