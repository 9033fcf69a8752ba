import Testing
@testable import ModelGenKit

@Suite struct OutputNamingTests {
    @Test(arguments: [
        (GenerationInput(path: "Samples/Trips.model"), "Trips.model.swift"),
        (GenerationInput(path: "Trips.model"), "Trips.model.swift"),
        (GenerationInput(path: "Models/Travel/Trips.model", pathInFolder: "Travel/Trips.model"), "Travel_Trips.model.swift"),
        (GenerationInput(path: "Models/Trips.model", pathInFolder: "Trips.model"), "Trips.model.swift"),
        (GenerationInput(path: "M/a/b/c.model", pathInFolder: "a/b/c.model"), "a_b_c.model.swift"),
    ])
    func outputNameFollowsThePath(_ input: GenerationInput, _ expected: String) {
        #expect(OutputNaming.outputName(for: input) == expected)
    }

    @Test func clashIsReported() {
        let inputs = [
            GenerationInput(path: "A/Travel_Trips.model", pathInFolder: "Travel_Trips.model"),
            GenerationInput(path: "A/Travel/Trips.model", pathInFolder: "Travel/Trips.model"),
        ]
        #expect(throws: OutputNameClash(outputName: "Travel_Trips.model.swift", inputs: ["A/Travel_Trips.model", "A/Travel/Trips.model"])) {
            try OutputNaming.outputNames(for: inputs)
        }
    }

    @Test func distinctPathsGetDistinctNames() throws {
        let inputs = [
            GenerationInput(path: "F/Trains/Stop.model", pathInFolder: "Trains/Stop.model"),
            GenerationInput(path: "F/Flights/Stop.model", pathInFolder: "Flights/Stop.model"),
        ]
        #expect(try OutputNaming.outputNames(for: inputs) == ["Trains_Stop.model.swift", "Flights_Stop.model.swift"])
    }
}
