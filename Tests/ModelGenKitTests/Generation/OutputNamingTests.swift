import Testing
@testable import ModelGenKit

@Suite struct OutputNamingTests {
    @Test(arguments: [
        (ModelSource(path: "Samples/Trips.model", text: ""), "Trips.model.swift"),
        (ModelSource(path: "Trips.model", text: ""), "Trips.model.swift"),
        (ModelSource(path: "Models/Travel/Trips.model", text: "", relativePath: "Travel/Trips.model"), "Travel_Trips.model.swift"),
        (ModelSource(path: "Models/Trips.model", text: "", relativePath: "Trips.model"), "Trips.model.swift"),
        (ModelSource(path: "M/a/b/c.model", text: "", relativePath: "a/b/c.model"), "a_b_c.model.swift"),
    ])
    func outputNameFollowsThePath(_ input: ModelSource, _ expected: String) {
        #expect(OutputNaming.outputName(for: input) == expected)
    }

    @Test func clashIsReported() {
        let inputs = [
            ModelSource(path: "A/Travel_Trips.model", text: "", relativePath: "Travel_Trips.model"),
            ModelSource(path: "A/Travel/Trips.model", text: "", relativePath: "Travel/Trips.model"),
        ]
        #expect(throws: OutputNameClash(outputName: "Travel_Trips.model.swift", inputs: ["A/Travel_Trips.model", "A/Travel/Trips.model"])) {
            try OutputNaming.outputNames(for: inputs)
        }
    }

    @Test func distinctPathsGetDistinctNames() throws {
        let inputs = [
            ModelSource(path: "F/Trains/Stop.model", text: "", relativePath: "Trains/Stop.model"),
            ModelSource(path: "F/Flights/Stop.model", text: "", relativePath: "Flights/Stop.model"),
        ]
        #expect(try OutputNaming.outputNames(for: inputs) == ["Trains_Stop.model.swift", "Flights_Stop.model.swift"])
    }
}
