import Revertible
import UndoableReducer
import UndoableReducerTesting
import XCTest

/// The test store works in XCTest too, where failures are `XCTFail`s.
final class TestStoreXCTests: XCTestCase {
    func testAFeatureWithAnEffect() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        await store.send(.load) { $0.isLoading = true }
        await store.receive(.loaded(["milk", "eggs"])) {
            $0.isLoading = false
            $0.items = ["milk", "eggs"]
        }
        await store.finish()
    }
}
