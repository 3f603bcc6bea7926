/// A loop's timers, earliest first (a binary min-heap on the deadline; ties in insertion
/// order). Loop-confined.
struct TimerQueue {
    private struct Item {
        let deadline: Deadline
        let sequence: UInt64
        let entry: TimerEntry

        func before(_ other: Item) -> Bool {
            (deadline, sequence) < (other.deadline, other.sequence)
        }
    }

    private var heap: [Item] = []
    private var sequence: UInt64 = 0

    var nextDeadline: Deadline? { heap.first?.deadline }

    mutating func insert(_ entry: TimerEntry, at deadline: Deadline) {
        sequence &+= 1
        heap.append(Item(deadline: deadline, sequence: sequence, entry: entry))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].before(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest entry if it is due at `now`, removed.
    mutating func popDue(at now: Deadline) -> TimerEntry? {
        guard let first = heap.first, first.deadline.hasPassed(at: now) else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].before(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].before(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.entry
    }
}
