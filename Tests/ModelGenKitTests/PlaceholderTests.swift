import Testing
@testable import ModelGenKit

@Test func ruleTableHasEveryRule() {
    #expect(RuleID.all.count == 25)
}
