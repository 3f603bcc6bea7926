/// An event loop can run Swift tasks: `Task(executorPreference: loop) { … }` runs the
/// task's synchronous stretches on the loop's thread, and it resumes there after each
/// `await`. Work that only awaits I/O then costs no thread hop at all; work that
/// computes for long would hold up the loop's other channels, so use it for cheap work.
extension EventLoop: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        enqueue(task: UnownedJob(job))
    }
}
