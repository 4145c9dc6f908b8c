import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET whose answer is held to a size and a total time. URLSession's
/// completion handler buffers the whole body and its time-out only counts
/// idle gaps: an endless answer took `analyze --online` to 9 GB in 30 s,
/// and a 2 MB gzip answer inflating to 2 GiB to 8.5 GB. Here the body
/// arrives piece by piece (inflated, as Foundation hands it over) and the
/// task is cancelled the moment it passes `byteLimit`, or when `deadline`
/// seconds have passed since it began, whatever the server does.
final class CappedFetch: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Outcome {
        case answered(HTTPURLResponse, Data)
        case tooLarge(Int)
        case tooSlow(TimeInterval)
        case failed(Error)
    }

    private struct Pending {
        var data = Data()
        var response: HTTPURLResponse?
        var overLimit = false
        var done: DispatchSemaphore
        var outcome: Outcome?
    }

    let byteLimit: Int
    private let tasks = Mutex<[Int: Pending]>([:])

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// Runs `request` on `session` (whose delegate is this object) and waits.
    func fetch(_ request: URLRequest, session: URLSession, deadline: TimeInterval) -> Outcome {
        let task = session.dataTask(with: request)
        let done = DispatchSemaphore(value: 0)
        tasks.withLock { $0[task.taskIdentifier] = Pending(done: done) }
        task.resume()
        if done.wait(timeout: .now() + deadline) == .timedOut {
            task.cancel()
            done.wait()  // the cancellation's completion
            tasks.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
            return .tooSlow(deadline)
        }
        let pending = tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        return pending?.outcome ?? .failed(URLError(.unknown))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        tasks.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = tasks.withLock { tasks -> Bool in
            guard var pending = tasks[dataTask.taskIdentifier], !pending.overLimit else { return false }
            if pending.data.count + data.count > byteLimit {
                pending.overLimit = true
                pending.data = Data()
                tasks[dataTask.taskIdentifier] = pending
                return true
            }
            pending.data.append(data)
            tasks[dataTask.taskIdentifier] = pending
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let done = tasks.withLock { tasks -> DispatchSemaphore? in
            guard var pending = tasks[task.taskIdentifier] else { return nil }
            if pending.overLimit {
                pending.outcome = .tooLarge(byteLimit)
            } else if let error {
                pending.outcome = .failed(error)
            } else if let response = pending.response {
                pending.outcome = .answered(response, pending.data)
            } else {
                pending.outcome = .failed(URLError(.badServerResponse))
            }
            tasks[task.taskIdentifier] = pending
            return pending.done
        }
        done?.signal()
    }
}
