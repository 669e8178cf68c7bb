import Glibc

/// Environment variables without Foundation.
public enum ProcessEnvironment {
    public static subscript(name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
