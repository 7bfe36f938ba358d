import Foundation
import Synchronization

/// Wakes whenever a file in a folder is written, created or moved in (Linux inotify), and at least
/// every `fallback`, on a thread of its own that sleeps in poll(2) meanwhile: an idle folder
/// costs one wake-up per `fallback`. Where inotify is refused, it wakes every `polling`.
enum FolderWatch {
    /// Yields after each change in `folder` (changes close together yield once) and when
    /// `fallback` passes without one. Ends when its consumer stops listening.
    static func changes(in folder: String, fallback: Duration, polling: Duration) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if watch < 0 || inotify_add_watch(watch, folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) < 0 {
            if watch >= 0 { close(watch) }
            return timer(every: polling)
        }
        let stopped = Stop()
        continuation.onTermination = { _ in stopped.flag.store(true, ordering: .relaxed) }
        let timeout = Int32(
            fallback.components.seconds * 1000 + fallback.components.attoseconds / 1_000_000_000_000_000)
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var descriptor = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
            while !stopped.flag.load(ordering: .relaxed) {
                if poll(&descriptor, 1, timeout) > 0 { while read(watch, &buffer, buffer.count) > 0 {} }
                continuation.yield()
            }
            close(watch)
        }
        thread.name = "fakenft folder watch"
        thread.start()
        return stream
    }

    /// Without inotify: a wake-up every `interval`.
    private static func timer(every interval: Duration) -> AsyncStream<Void> {
        AsyncStream { (try? await Task.sleep(for: interval)) == nil ? nil : () }
    }

    private final class Stop: Sendable {
        let flag = Atomic(false)
    }
}
