import Glibc

/// Why a proxy could not start. Only `FaultProxy.init` throws; once running, a failure on one
/// connection ends that connection and nothing else.
public enum FaultProxyError: Error, Equatable, CustomStringConvertible {
    /// A socket call failed while setting up the listener: the call's name and `errno`.
    case socket(call: String, errno: Int32)

    public var code: String {
        switch self {
        case .socket: "E_PROXY_SOCKET"
        }
    }

    public var description: String {
        switch self {
        case .socket(let call, let errno): "\(code): \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}
