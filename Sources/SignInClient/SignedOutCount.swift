struct SignedOutCount: Decodable, Sendable { var signedOut: Int }
