struct SignedOut: Decodable, Sendable { var signedOut: Bool }
