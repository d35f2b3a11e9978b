/// An AndroidManifest.xml reduced to what the checks read, as the package manager will see it
/// once the build has resolved placeholders and resources: the activities and activity
/// aliases that can receive links (with their intent filters), the `<queries>` entries, and
/// the target SDK.
///
/// What the package manager never sees is set aside: elements the manifest merger removes
/// (`tools:node="remove"` / `"removeAll"`, developer.android.com/build/manage-manifests,
/// "Merge rule markers") and components disabled with `android:enabled="false"` (an
/// application disabled that way disables every component; developer.android.com/guide/
/// topics/manifest/activity-element#enabled).
struct AndroidManifest {
    /// An `<activity>` or `<activity-alias>`.
    struct Component {
        var kind: String
        var name: String
        /// `android:exported` as the build resolves it.
        var exported: BuildValue?
        /// `android:permission` that guards starting it, and whose it is (its own, or the
        /// application's: an activity inherits `<application android:permission>`, an alias
        /// does not — AOSP ParsedActivityUtils: "An alias will override permissions to allow
        /// referencing an Activity through its alias without needing the original permission").
        var permission: (value: String, owner: String)?
        /// `launchMode` as written (a name, or an `@integer/` resource): an alias has none of
        /// its own and runs with its target's (AOSP ParsedActivityImpl.makeAlias copies
        /// launchMode; exported, enabled and permission stay the alias's own).
        var launchMode: BuildValue?
        /// `android:taskAffinity` as written (an alias's is its target's): which task a
        /// `singleTask` activity lives in; `nil` is the package's, the launcher's by default.
        var taskAffinity: String?
        /// For an alias: the target activity (name, element index, line), when this manifest declares it.
        var target: (name: String, index: Int, line: Int)?
        var line: Int
        var index: Int
        var childIndexes: [Int]
        var filters: [IntentFilter]
        /// Set when `android:enabled` is a resource whose `values-vNN/` folders disagree: the
        /// component is kept, and this says on which devices it is disabled.
        var enabledNote: String? = nil

        var isAlias: Bool { kind == "activity-alias" }
        /// Whether a filter makes it a launcher entry (MAIN + LAUNCHER): the home-screen icon starts it.
        var isLauncher: Bool {
            filters.contains { $0.actions.contains("android.intent.action.MAIN") && $0.categories.contains("android.intent.category.LAUNCHER") }
        }
        /// The activity that runs: the alias's target, else itself (its name).
        var runningActivity: String { target?.name ?? name }
    }

    static let namespace = "http://schemas.android.com/apk/res/android"
    static let toolsNamespace = "http://schemas.android.com/tools"

    var package: String?
    /// The components the package manager keeps (enabled, not removed).
    var components: [Component] = []
    /// Components set aside, and why ("disabled (android:enabled=\"false\")", "removed by tools:node").
    var skipped: [(component: Component, why: String)] = []
    var queryIntents: [IntentFilter] = []
    var queryPackages: [String] = []
    /// `<uses-sdk android:targetSdkVersion>`, when written as a number.
    var usesSDKTarget: (value: Int, line: Int)?
    var applicationIndex: Int?
    var queriesIndex: Int?
    var queriesChildren: [Int] = []
    var rootChildren: [Int] = []

    /// Reads the tree of a `<manifest>`, resolving attribute values with `build`.
    init(_ root: XMLTreeElement, build: AndroidBuildValues) {
        // Attributes are read as written (`android:scheme`); the prefix is whatever the file
        // binds to the Android namespace, "android" by convention (likewise "tools").
        func prefix(_ namespace: String, _ fallback: String) -> String {
            root.attributes.first { $0.key.hasPrefix("xmlns:") && $0.value == namespace }.map { String($0.key.dropFirst("xmlns:".count)) } ?? fallback
        }
        let android = prefix(AndroidManifest.namespace, "android")
        let tools = prefix(AndroidManifest.toolsNamespace, "tools")
        func raw(_ element: XMLTreeElement, _ name: String) -> String? { element.attributes[android + ":" + name] }
        func value(_ element: XMLTreeElement, _ name: String) -> BuildValue? { raw(element, name).map(build.resolve) }
        func text(_ element: XMLTreeElement, _ name: String) -> String? { value(element, name).map { $0.resolved ?? $0.written } }
        func removed(_ element: XMLTreeElement) -> Bool {
            let node = element.attributes[tools + ":node"]
            return node == "remove" || node == "removeAll"
        }
        func kept(_ element: XMLTreeElement, _ name: String) -> [XMLTreeElement] { element.children(name).filter { !removed($0) } }
        func filter(_ element: XMLTreeElement) -> IntentFilter {
            var filter = IntentFilter(
                actions: kept(element, "action").compactMap { text($0, "name") },
                categories: kept(element, "category").compactMap { text($0, "name") },
                data: kept(element, "data").map { data in IntentFilter.DataElement(line: data.line, index: data.index) { value(data, $0) } },
                autoVerify: text(element, "autoVerify") == "true",
                line: element.line, index: element.index)
            filter.childIndexes = element.children.map { $0.index }
            filter.anchorIndex = (element.children("category").last ?? element.children("action").last)?.index
            return filter
        }

        package = root.attributes["package"]
        func qualified(_ name: String) -> String {
            guard let package else { return name }
            if name.hasPrefix(".") { return package + name }
            return name.contains(".") ? name : package + "." + name
        }
        rootChildren = root.children.map { $0.index }
        if let usesSDK = kept(root, "uses-sdk").last, let target = text(usesSDK, "targetSdkVersion").flatMap({ Int($0) }) {
            usesSDKTarget = (target, usesSDK.line)
        }
        let applications = kept(root, "application")
        applicationIndex = applications.first?.index
        for application in applications {
            let applicationDisabled = text(application, "enabled") == "false"
            let applicationPermission = text(application, "permission").flatMap { $0.isEmpty ? nil : $0 }
            let activities = application.children("activity")
            for element in application.children where element.name == "activity" || element.name == "activity-alias" {
                let isAlias = element.name == "activity-alias"
                var launchMode = value(element, "launchMode")
                var taskAffinity = text(element, "taskAffinity")
                var target: (name: String, index: Int, line: Int)? = nil
                if isAlias, let targetName = text(element, "targetActivity") {
                    let activity = activities.first { text($0, "name").map(qualified) == qualified(targetName) }
                    launchMode = activity.flatMap { value($0, "launchMode") }
                    taskAffinity = activity.flatMap { text($0, "taskAffinity") }
                    target = activity.map { (text($0, "name") ?? targetName, $0.index, $0.line) }
                }
                // An empty android:permission="" clears the application's (AOSP setPermission).
                let own = text(element, "permission")
                var permission: (value: String, owner: String)? = nil
                if let own, !own.isEmpty {
                    permission = (own, "its own android:permission")
                } else if own == nil, !isAlias, let applicationPermission {
                    permission = (applicationPermission, "<application android:permission>")
                }
                var component = Component(
                    kind: element.name, name: text(element, "name") ?? "(unnamed)", exported: value(element, "exported"),
                    permission: permission, launchMode: launchMode, taskAffinity: taskAffinity, target: target, line: element.line, index: element.index,
                    childIndexes: element.children.map { $0.index },
                    filters: kept(element, "intent-filter").map(filter))
                // An `@bool/` whose values-vNN/ folders disagree: enabled on some devices only.
                let enabled = value(element, "enabled")
                let enabledLevels = enabled?.perAPILevel ?? []
                if !enabledLevels.isEmpty, enabledLevels.contains(where: { $0.value == "true" }) {
                    let off = enabledLevels.filter { $0.value != "true" }.map { level in
                        level.from.map { "from API \($0)" + (level.to.map { " to \($0 - 1)" } ?? "") } ?? "below API \(level.to ?? 0)"
                    }
                    component.enabledNote = "is disabled \(off.joined(separator: " and ")) (android:enabled=\"\(enabled?.written ?? "")\")"
                }
                if removed(element) {
                    skipped.append((component, "removed from the merged manifest (tools:node=\"\(element.attributes[tools + ":node"] ?? "")\")"))
                } else if applicationDisabled || (text(element, "enabled") == "false" && component.enabledNote == nil) {
                    skipped.append((component, applicationDisabled ? "disabled (<application android:enabled=\"false\">)" : "disabled (android:enabled=\"false\")"))
                } else {
                    components.append(component)
                }
            }
        }
        for queries in kept(root, "queries") {
            queriesIndex = queriesIndex ?? queries.index
            if queriesIndex == queries.index { queriesChildren = queries.children.map { $0.index } }
            queryIntents += kept(queries, "intent").map(filter)
            queryPackages += kept(queries, "package").compactMap { text($0, "name") }
        }
    }
}
