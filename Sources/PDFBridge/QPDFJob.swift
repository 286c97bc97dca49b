internal import CQPDF

/// What a qpdf job printed, by channel; collected per job (a private logger), never printed.
public final class QPDFJobLog {
    public private(set) var warnings: [String] = []
    public private(set) var errors: [String] = []
    public private(set) var info: [String] = []
    fileprivate var partial = ["", "", ""]

    fileprivate func append(_ text: String, channel: Int) {
        partial[channel] += text
        while let nl = partial[channel].firstIndex(of: "\n") {
            let line = String(partial[channel][..<nl])
            partial[channel] = String(partial[channel][partial[channel].index(after: nl)...])
            guard !line.isEmpty else { continue }
            switch channel {
            case 0: warnings.append(line)
            case 1: errors.append(line)
            default: info.append(line)
            }
        }
    }

    fileprivate func flush() {
        for c in 0..<3 where !partial[c].isEmpty { append("\n", channel: c) }
    }
}

/// One run of qpdf's job interface (what the `qpdf` command line does), configured with qpdf's job
/// JSON. Owns its `qpdfjob_handle` and logger; nothing it says reaches the console.
public enum QPDFJob {
    /// Runs a job. Returns qpdf's exit status (0 success, 2 errors, 3 warnings) and its messages.
    /// The corresponding C functions are `qpdfjob_initialize_from_json` and `qpdfjob_run`.
    public static func run(json: String) -> (status: Int, log: QPDFJobLog) {
        let log = QPDFJobLog()
        guard let handle = qpdfjob_init() else { return (2, log) }
        var job: qpdfjob_handle? = handle
        defer { qpdfjob_cleanup(&job) }
        var logger: qpdflogger_handle? = qpdflogger_create()
        defer { qpdflogger_cleanup(&logger) }
        let context = Unmanaged.passUnretained(log).toOpaque()
        let warn: qpdf_log_fn_t = { data, len, udata in
            Unmanaged<QPDFJobLog>.fromOpaque(udata!).takeUnretainedValue().append(text(data, len), channel: 0)
            return 0
        }
        let error: qpdf_log_fn_t = { data, len, udata in
            Unmanaged<QPDFJobLog>.fromOpaque(udata!).takeUnretainedValue().append(text(data, len), channel: 1)
            return 0
        }
        let info: qpdf_log_fn_t = { data, len, udata in
            Unmanaged<QPDFJobLog>.fromOpaque(udata!).takeUnretainedValue().append(text(data, len), channel: 2)
            return 0
        }
        qpdflogger_set_warn(logger, qpdf_log_dest_custom, warn, context)
        qpdflogger_set_error(logger, qpdf_log_dest_custom, error, context)
        qpdflogger_set_info(logger, qpdf_log_dest_custom, info, context)
        qpdflogger_set_save(logger, qpdf_log_dest_discard, nil, nil, 0)
        qpdfjob_set_logger(handle, logger)
        var status = Int(qpdfjob_initialize_from_json(handle, json))
        if status == 0 { status = Int(qpdfjob_run(handle)) }
        withExtendedLifetime(log) { log.flush() }
        return (status, log)
    }
}

private func text(_ data: UnsafePointer<CChar>?, _ len: Int) -> String {
    guard let data else { return "" }
    return data.withMemoryRebound(to: UInt8.self, capacity: len) { String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self) }
}
