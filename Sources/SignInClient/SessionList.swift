struct SessionList: Decodable, Sendable { var sessions: [SessionSummary] }
