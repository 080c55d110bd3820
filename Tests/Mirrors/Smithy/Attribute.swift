// Mirror of smithy-lang/smithy-swift 0.246.0 (d55aa01), Sources/Smithy/Attribute.swift: the public
// declarations exactly; the bodies are this mirror's own. Module SmithyMirror, imported as `Smithy`
// through -module-alias in this package's typecheck targets only (Package.swift, docs/client.md).

/// Type safe property bag key
public struct AttributeKey<ValueType>: Sendable {
    let name: String

    public init(name: String) {
        self.name = name
    }

    public func getName() -> String { name }
}

/// Type safe property bag
public struct Attributes: Sendable {
    private var attributes = [String: any Sendable]()
    public var size: Int { attributes.count }

    public init() {}

    public func get<T: Sendable>(key: AttributeKey<T>) -> T? { attributes[key.name] as? T }

    public func contains<T: Sendable>(key: AttributeKey<T>) -> Bool { get(key: key) != nil }

    public func getKeys() -> [String] { Array(attributes.keys) }

    public mutating func set<T: Sendable>(key: AttributeKey<T>, value: T?) { attributes[key.name] = value }

    public mutating func remove<T>(key: AttributeKey<T>) { attributes.removeValue(forKey: key.name) }
}
