import Foundation
import Testing
@testable import ModelGenKit

/// docs/Rules.md: the rules turn the inheritance guide's WRONG examples into diagnostics, each at the line of the
/// offending entity, init or container entry. The guide's examples, translated into `.model`, in one file.
@Suite struct SpecGuideRuleTests {
    static let guideExamples = """
        entity Trip {
            name: String
            startDate: Date
            endDate: Date
            init(name, startDate, endDate)
        }
        entity BusinessTrip: Trip {
            company: String
            init(company)
        }
        entity InternationalBusinessTrip: BusinessTrip {
            visa: String
        }
        entity DomesticTrip: Trip { }
        entity InternationalTrip: Trip { passportRequired: Bool = true }
        container C { Trip, BusinessTrip, PersonalTrip }
        entity PersonalTrip: Trip {
            reason: String
            init(name, startDate, endDate, reason) {
                super.init(name, startDate, endDate)
            }
        }

        """

    @Test func guideWrongExamplesFireAtTheirLines() {
        #expect(SpecModel.findings(Self.guideExamples) == [
            "9:5 missing-super-init",        // WRONG -- base properties uninitialized: init(company)
            "11:35 flat-hierarchy",          // WRONG -- three levels deep
            "14:8 label-only-subclass",      // WRONG -- inheritance just for a category label
            "15:8 label-only-subclass",
            "16:21 redundant-registration",  // UNNECESSARY -- ModelContainer(for: Trip.self, BusinessTrip.self, …)
            "16:35 redundant-registration",
        ])
    }

    /// "`label-only-subclass` … the note suggests an enum property on the base, with the cases it would have".
    @Test func labelOnlyNoteNamesTheCases() throws {
        let diagnostics = SpecModel.lint(Self.guideExamples).diagnostics.filter { $0.rule == .labelOnlySubclass }
        let note = try #require(diagnostics.first?.notes.first?.message)
        #expect(note.contains("enum Category: String, Codable { case domestic, international }"))
    }

    /// "A subclass adding real data with a default (Apple's own `BusinessTrip { perdiem: Double = 0.0 }`)
    /// is not a label"; a label is "no stored property, or no relationship and only `Bool` attributes
    /// that all have default values".
    @Test func realDataWithADefaultIsNotALabel() {
        let right = """
            entity Trip {
                enum Category: String, Codable { case domestic, international }
                name: String
                category: Category = .domestic
                passportRequired: Bool?
            }
            entity BusinessTrip: Trip { perdiem: Double = 0.0 }
            entity SchoolTrip: Trip { school: String? }
            entity GroupTrip: Trip { size: Int = 2; guided: Bool = false }
            entity CruiseTrip: Trip { @Transient seen: Bool = false; ship: String = "" }
            entity Stop { name: String }
            entity TourTrip: Trip { covered: Bool = true; stops: [Stop] = [] }
            """
        #expect(SpecModel.findings(right) == [])
        let wrong = """
            entity Trip { name: String }
            entity DomesticTrip: Trip { }
            entity InternationalTrip: Trip { passportRequired: Bool = true; visaRequired: Bool? = nil }
            entity CachedTrip: Trip { @Transient note: String = "" }
            """
        #expect(SpecModel.findings(wrong) == ["2:8 label-only-subclass", "3:8 label-only-subclass", "4:8 label-only-subclass"])
        let note = SpecModel.lint(wrong).diagnostics.first?.notes.first?.message ?? ""
        #expect(note.contains("enum Category: String, Codable { case domestic, international, cached }"))
    }

    /// "Errors stop generation; warnings do not": a model with only warnings has a schema.
    @Test func warningsDoNotStopGeneration() throws {
        let source = "entity Trip { name: String }\nentity BusinessTrip: Trip { company: String }\ncontainer C { BusinessTrip }\n"
        let result = SpecModel.lint(source)
        #expect(result.diagnostics.map(\.rule) == [.unregisteredBase])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(try SpecModel.generate(source) != nil)
    }

    /// "Subclasses come with their base and need not be listed: the generated schema includes every
    /// subclass of a listed base"; an unregistered base "is added".
    @Test func containerSchemaIncludesTheHierarchy() throws {
        let source = "entity Trip { name: String }\nentity BusinessTrip: Trip { company: String }\nentity Other { x: Int }\ncontainer C { Trip }\ncontainer D { BusinessTrip }\n"
        let schema = try #require(SpecModel.lint(source).schema)
        let c = try #require(schema.containers.first { $0.name == "C" })
        let d = try #require(schema.containers.first { $0.name == "D" })
        #expect(Set(c.allEntities) == ["Trip", "BusinessTrip"])
        #expect(Set(d.allEntities) == ["Trip", "BusinessTrip"])
    }

    /// "Report every error found in one run (the parser recovers at the next declaration or member),
    /// sorted by file and position."
    @Test func everyErrorIsReportedSorted() {
        let source = "entity A {\n    x Int\n    y: Int\n    z String\n}\nentity B {\n    q: = 3\n}\nentity C { w: Dat }\n"
        #expect(SpecModel.findings(source) == ["2:7 syntax", "4:7 syntax", "7:8 syntax", "9:15 unknown-type"])
    }
}

/// docs/Rules.md: "Report every error found in one run (the parser recovers at the next declaration or member)":
/// the errors of members that parsed are reported even inside a declaration with a syntax error.
@Suite struct SpecEveryErrorTests {
    @Test func memberErrorsBesideASyntaxErrorInTheSameEntity() {
        let source = """
            entity A {
                x Int
                y: Dat
                z: Int8 = 300
                @Transient t: Int
                w: [[Int]]
                hash: Int = 0
                init(x)
            }
            entity B { a: Missing? }
            entity Missing {
                q String
            }

            """
        #expect(SpecModel.findings(source) == [
            "2:7 syntax", "3:8 unknown-type", "4:15 default-type-mismatch", "5:5 invalid-attribute",
            "6:8 unsupported-type", "7:5 reserved-name", "12:7 syntax",
        ])
    }
}
