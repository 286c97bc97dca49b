/// A per-document resource that learns of problems while stages use it (pdfpipe's object reader
/// handing an object it cannot read exactly as written to qpdf, say). The runner asks it after every
/// stage, so a problem is reported whichever stage came upon it, and only once.
public protocol PendingFindings: AnyObject {
    /// Reports what was learnt since the last call.
    func flush(into job: inout Job)
    /// Reports what waits for the end of the document (or of the working file): what later reads
    /// might still say better. The default flushes.
    func finish(into job: inout Job)
}

extension PendingFindings {
    public func finish(into job: inout Job) { flush(into: &job) }
}

/// Per-document resources that stages share (an opened document, say), kept for the life of the
/// job on the worker's thread and dropped with it. Not Sendable: it never leaves its worker.
public final class JobResources {
    private var items: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    /// The cached value of type `T`, made on first use.
    public func value<T: AnyObject>(_ type: T.Type, make: () throws -> T) rethrows -> T {
        if let v = items[ObjectIdentifier(type)] as? T { return v }
        let v = try make()
        items[ObjectIdentifier(type)] = v
        return v
    }

    /// The cached value of type `T`, if any.
    public func existing<T: AnyObject>(_ type: T.Type) -> T? { items[ObjectIdentifier(type)] as? T }

    /// Caches a value under its type.
    public func store<T: AnyObject>(_ value: T) { items[ObjectIdentifier(T.self)] = value }

    /// Forgets every cached value (when the working file changes).
    public func removeAll() { items.removeAll() }

    /// The resources that have findings to give, in a stable order.
    public var pendingFindings: [any PendingFindings] {
        items.values.compactMap { $0 as? any PendingFindings }.sorted { "\(type(of: $0))" < "\(type(of: $1))" }
    }
}

/// Values stages hand to later stages of the same document, one per type.
public struct StageProducts {
    private var items: [ObjectIdentifier: Any] = [:]

    public init() {}

    public subscript<T>(_ type: T.Type) -> T? {
        get { items[ObjectIdentifier(type)] as? T }
        set { items[ObjectIdentifier(type)] = newValue }
    }
}
