import Catalog
import Foundation
import ModelStore

// Uses the public classes generated in the Catalog module.
let context = ModelContext(try makeInMemoryCatalog())
let lamp = Product(code: "L1", name: "Lamp", price: 19.5)
let review = Review(stars: 4)
review.product = lamp
context.insert(lamp)
context.insert(review)
try context.save()
let products = try context.fetch(FetchDescriptor<Product>(sortBy: [SortDescriptor(\.code)]))
print("products: \(products.map { "\($0.name) \($0.price) (\($0.reviews.map(\.stars)))" }.joined(separator: ", "))")
