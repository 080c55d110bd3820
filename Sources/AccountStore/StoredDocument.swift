/// One document as `check` read it: not there, there (decoded), or there but unreadable (its
/// bytes do not decode; reported as a finding, never a reason to stop the check).
package enum StoredDocument<Value> {
    case absent
    case present(Value)
    case unreadable(String)

    package var value: Value? {
        if case .present(let v) = self { return v }
        return nil
    }

    package var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    package var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }

    package func map<U>(_ transform: (Value) -> U) -> StoredDocument<U> {
        switch self {
        case .absent: return .absent
        case .present(let v): return .present(transform(v))
        case .unreadable(let why): return .unreadable(why)
        }
    }
}
