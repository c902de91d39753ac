import Foundation
import Revertible

/// The earliest seeds' model.
struct User: Versionable {

    var name: String
    var imageData: Data

    func addReversions(into reverter: inout some Reverter<User>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.imageData)
    }
}
