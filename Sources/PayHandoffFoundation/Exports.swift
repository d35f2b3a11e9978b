// `import PayHandoffFoundation` is all a Swift app writes: the overlay's API is made of the core's
// types (`CoordinatorAnswer`, `POSRequest`, `Amount`, `Coordinator.Configuration`, …), so a file
// that can call it needs them in scope too, as NIOPosix's users get NIOCore's types. Foundation
// is not re-exported: an app's file already imports it (or UIKit/SwiftUI, which do), and a library
// that re-exports Foundation puts it into files that chose not to import it.
@_exported import PayHandoff
