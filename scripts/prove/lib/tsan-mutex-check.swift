// The Synchronization.Mutex half of scripts/prove/tsan-mutex-check (not part of the package).
import Synchronization
import Foundation

// A plain class handed between threads only through Synchronization.Mutex.
final class Box: @unchecked Sendable { var value = 0 }
let shared = Mutex<[Box]>([])
let threads = (0..<4).map { t in
    Thread {
        for i in 0..<20000 {
            // take a box (or make one), write to it outside the lock, put it back
            let box = shared.withLock { $0.popLast() } ?? Box()
            box.value += i + t
            shared.withLock { $0.append(box) }
        }
    }
}
threads.forEach { $0.start() }
Thread.sleep(forTimeInterval: 3)
print("done", shared.withLock { $0.count })
