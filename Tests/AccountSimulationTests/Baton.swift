import AccountTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One holder at a time: the simulation runs each operation on its own thread, but only the
/// thread holding the baton runs, so the interleaving is exactly the scheduler's choice and the
/// run replays from its seed. Holder -1 is the scheduler.
final class Baton: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var holder: Int

    init(holder: Int) {
        self.holder = holder
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        cond.deallocate()
    }

    /// Hands the baton to `next` and waits until it comes back to `me`.
    func pass(to next: Int, thenWaitAs me: Int) {
        pthread_mutex_lock(mutex)
        holder = next
        pthread_cond_broadcast(cond)
        while holder != me { pthread_cond_wait(cond, mutex) }
        pthread_mutex_unlock(mutex)
    }

    func wait(as me: Int) {
        pthread_mutex_lock(mutex)
        while holder != me { pthread_cond_wait(cond, mutex) }
        pthread_mutex_unlock(mutex)
    }

    func pass(to next: Int) {
        pthread_mutex_lock(mutex)
        holder = next
        pthread_cond_broadcast(cond)
        pthread_mutex_unlock(mutex)
    }
}

/// Starts `body` on a new thread (joined with `join`).
final class SimulationThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                let me = Unmanaged<SimulationThread>.fromOpaque(raw!).takeRetainedValue()
                me.body()
                return nil
            }, box)
        precondition(rc == 0, "pthread_create failed")
    }

    func join() { pthread_join(thread, nil) }
}
