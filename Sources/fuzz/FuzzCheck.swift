/// A property a target checks beyond "no crash". A violation stops the run as a crash does, so
/// libFuzzer keeps the input; the message names the property.
func require(_ condition: @autoclosure () -> Bool, _ property: StaticString) {
    if !condition() { fatalError("property violated: \(property)") }
}
