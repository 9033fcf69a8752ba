import Foundation
import Testing
import ModelStore

/// docs/Language.md "Types": every type, optional and array of `Generated/SpecAllTypes.model.swift` (made by
/// ModelGenKitTests' `AllTypesGoldenTests`) compiles, and its values come back from a store (SQLite file, PostgreSQL) as
/// they were saved; the defaults of the synthesized memberwise init are the model's.
@Suite struct SpecAllTypesRoundTripTests {
    static let day = Date(timeIntervalSince1970: 86_400 * 365)
    static let id = UUID(uuidString: "12345678-1234-1234-1234-123456789ABC")!
    static let site = URL(string: "https://example.com/a?b=c")!

    func makeFilled() -> SpecEverything {
        let model = SpecEverything(data: Data([0, 1, 255]), url: Self.site)
        model.optionalFlag = false
        model.optionalInt = Int.min
        model.optionalInt8 = Int8.min
        model.optionalInt16 = Int16.min
        model.optionalInt32 = Int32.min
        model.optionalInt64 = Int64.max
        model.optionalUInt8 = UInt8.max
        model.optionalUInt16 = UInt16.max
        model.optionalUInt32 = UInt32.max
        model.optionalDouble = -0.25
        model.optionalFloat = 3.5
        model.optionalString = nil
        model.optionalDate = Self.day
        model.optionalUUID = Self.id
        model.optionalData = Data()
        model.optionalURL = Self.site
        model.optionalDecimal = Decimal(string: "0.1")
        model.optionalMood = .angry
        model.interval = -1.25
        model.width = 3.75
        model.optionalInterval = 86_400
        model.optionalWidth = -0.5
        model.intervals = [0.5, 1e9]
        model.int8s = [Int8.min, Int8.max]
        model.int16s = [Int16.min]
        model.int32s = [Int32.max]
        model.int64s = [Int64.min]
        model.uint8s = [UInt8.max]
        model.uint16s = [UInt16.max]
        model.uint32s = [UInt32.max]
        model.floats = [0.5, -1]
        model.dates = [Self.day]
        model.uuids = [Self.id]
        model.datas = [Data([7])]
        model.urls = [Self.site]
        model.decimals = [Decimal(string: "3.3")!]
        model.moods = [.angry, .calm]
        model.optionalInts = [3]
        model.blob = Data(repeating: 9, count: 64)
        model.code = "one"
        model.scratch = 5
        return model
    }

    @Test func synthesizedInitUsesTheModelsDefaults() {
        let model = SpecEverything(data: Data(), url: Self.site)
        #expect(model.flag == true && model.int == -1_000 && model.int8 == -8 && model.int16 == 16)
        #expect(model.int32 == 32 && model.int64 == 64 && model.uint8 == 255 && model.uint16 == 65535)
        #expect(model.uint32 == 4_294_967_295 && model.double == 2.5 && model.float == 1.5)
        #expect(model.string == "q\"b\\s\n\t\u{E9}")
        #expect(model.decimal == Decimal(string: "12.25") && model.interval == 90 && model.width == 0.5)
        #expect(model.optionalInterval == nil && model.optionalWidth == nil && model.intervals.isEmpty && model.widths == [1.5])
        #expect(model.mood == .calm && model.level == .high && model.level.rawValue == 10)
        #expect(model.optionalInt == nil && model.optionalString == "maybe")
        #expect(model.flags == [true, false] && model.ints == [1, -2] && model.doubles == [0.5])
        #expect(model.strings == ["a", "b"] && model.moods.isEmpty && model.optionalInts == nil)
        #expect(SpecMood.allCases.map(\.rawValue) == ["calm", "ANGRY"])
        #expect(SpecLevel.allCases.map(\.rawValue) == [0, 10])
    }

    @Test(arguments: StoreKind.persistent) func everyTypeRoundTripsThroughAStore(_ kind: StoreKind) throws {
        let store = try TestStore(kind)
        let configuration = store.configuration
        let original = makeFilled()
        do {
            let context = ModelContext(try ModelContainer(for: SpecAllTypesStore.schema, configurations: configuration))
            context.insert(original)
            context.insert(SpecSub(default: "sub", size: -3))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: SpecAllTypesStore.schema, configurations: configuration))
        let read = try #require(try context.fetch(FetchDescriptor<SpecEverything>()).first)
        #expect(read !== original)
        #expect(read.flag == original.flag && read.int == original.int && read.int8 == original.int8)
        #expect(read.int16 == original.int16 && read.int32 == original.int32 && read.int64 == original.int64)
        #expect(read.uint8 == original.uint8 && read.uint16 == original.uint16 && read.uint32 == original.uint32)
        #expect(read.double == original.double && read.float == original.float && read.string == original.string)
        #expect(abs(read.date.timeIntervalSince(original.date)) < 0.001)
        #expect(read.uuid == original.uuid && read.data == original.data && read.url == original.url)
        #expect(read.decimal == original.decimal && read.mood == original.mood && read.level == original.level)
        #expect(read.optionalFlag == false && read.optionalInt == Int.min && read.optionalInt8 == Int8.min)
        #expect(read.optionalInt16 == Int16.min && read.optionalInt32 == Int32.min && read.optionalInt64 == Int64.max)
        #expect(read.optionalUInt8 == UInt8.max && read.optionalUInt16 == UInt16.max && read.optionalUInt32 == UInt32.max)
        #expect(read.optionalDouble == -0.25 && read.optionalFloat == 3.5 && read.optionalString == nil)
        #expect(read.optionalDate == Self.day && read.optionalUUID == Self.id && read.optionalData == Data())
        #expect(read.optionalURL == Self.site && read.optionalDecimal == Decimal(string: "0.1") && read.optionalMood == .angry)
        #expect(read.flags == original.flags && read.ints == original.ints && read.int8s == [Int8.min, Int8.max])
        #expect(read.int16s == [Int16.min] && read.int32s == [Int32.max] && read.int64s == [Int64.min])
        #expect(read.uint8s == [UInt8.max] && read.uint16s == [UInt16.max] && read.uint32s == [UInt32.max])
        #expect(read.doubles == [0.5] && read.floats == [0.5, -1] && read.strings == ["a", "b"])
        #expect(read.dates == [Self.day] && read.uuids == [Self.id] && read.datas == [Data([7])])
        #expect(read.urls == [Self.site] && read.decimals == [Decimal(string: "3.3")!] && read.moods == [.angry, .calm])
        #expect(read.optionalInts == [3] && read.blob == Data(repeating: 9, count: 64) && read.code == "one")
        #expect(read.interval == -1.25 && read.width == 3.75 && read.optionalInterval == 86_400 && read.optionalWidth == -0.5)
        #expect(read.intervals == [0.5, 1e9] && read.widths == [1.5])
        #expect(read.keep == "" && read.scratch == 0)  // transient: not stored, back to its default

        let sub = try #require(try context.fetch(FetchDescriptor<SpecBase>()).first as? SpecSub)
        #expect(sub.default == "sub" && sub.size == -3 && sub.kind == .a && sub.other == nil)
    }
}
