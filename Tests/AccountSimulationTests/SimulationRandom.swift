import AccountTestSupport
import TestSupport

/// The simulation's generator: a seed replays a run exactly.
typealias SimulationRandom = SeededRandom
