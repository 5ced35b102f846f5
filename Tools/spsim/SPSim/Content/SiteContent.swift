import Foundation

/// The simulated site's content: lists, fields, items (the big list generated lazily) and files.

/// Builds the fixed content of the simulated site from a seed.
enum SiteContent {
    static let baseEpoch = CivilTime.epoch(year: 2026, month: 1, day: 5, hour: 9)
    /// The biggest file (in `/Shared Documents`): generated from the seed while it is sent, never held whole.
    static let largeFileName = "large-50MB.bin"
    static let largeFileLength = 50 * 1024 * 1024

    static func standardFields(seed: UInt64, listLabel: String) -> [FieldDef] {
        [
            FieldDef(
                internalName: "ID", title: "ID", typeAsString: "Counter", kind: 5,
                id: "1d22ea11-1e32-424e-89ab-9fedbadb6ce1", readOnly: true, indexed: true),
            FieldDef(
                internalName: "ContentTypeId", title: "Content Type ID", typeAsString: "ContentTypeId", kind: 25,
                id: "03e45e84-1992-4d42-9116-26f756012634", hidden: true, readOnly: true),
            FieldDef(
                internalName: "ContentType", title: "Content Type", typeAsString: "Computed", kind: 12,
                id: "c042a256-787d-4a6f-8a8a-cf6ab767f12d", readOnly: true, selectOnly: true),
            FieldDef(
                internalName: "Title", title: "Title", typeAsString: "Text", kind: 2,
                id: "fa564e0f-0c70-4ab9-b863-0177e6ddd247"),
            FieldDef(
                internalName: "Modified", title: "Modified", typeAsString: "DateTime", kind: 4,
                id: "28cf69c5-fa48-462a-b5cd-27b6f9d2bd5f", readOnly: true),
            FieldDef(
                internalName: "Created", title: "Created", typeAsString: "DateTime", kind: 4,
                id: "8c06beca-0777-48f7-91c7-6da68bc07b69", readOnly: true),
            FieldDef(
                internalName: "Author", title: "Created By", typeAsString: "User", kind: 20,
                id: "1df5e554-ec7e-46a6-901d-d85a3881cb18", readOnly: true),
            FieldDef(
                internalName: "Editor", title: "Modified By", typeAsString: "User", kind: 20,
                id: "d31655d1-1d5b-4511-95a1-7a09e9b75bf2", readOnly: true),
        ]
    }

    static func field(
        _ seed: UInt64, _ list: String, _ name: String, _ title: String, _ type: String, _ kind: Int,
        indexed: Bool = false, choices: [String] = [], selectOnly: Bool = false, readOnly: Bool = false
    ) -> FieldDef {
        FieldDef(
            internalName: name, title: title, typeAsString: type, kind: kind,
            id: stableGUID(seed, "field/\(list)/\(name)"),
            readOnly: readOnly, indexed: indexed, choices: choices, selectOnly: selectOnly)
    }

    /// A document library (template 101, or 109 for pictures) with the standard fields, `FileLeafRef` and `FileRef`,
    /// then `extraFields`.
    static func library(
        seed: UInt64, title: String, url: String, template: Int = 101, extraFields: [FieldDef] = []
    ) -> SPList {
        SPList(
            id: stableGUID(seed, "list/" + title), title: title, baseTemplate: template, url: url,
            fields: standardFields(seed: seed, listLabel: title)
                + [
                    field(seed, title, "FileLeafRef", "Name", "File", 18, selectOnly: true),
                    field(seed, title, "FileRef", "URL Path", "Lookup", 7, selectOnly: true, readOnly: true),
                ] + extraFields, created: baseEpoch)
    }

    /// Lists and files of a fresh site.
    static func build(seed: UInt64, bigItems: Int, userIds: [Int]) -> (lists: [SPList], files: [SPFile]) {
        var random = SeededRandom(seed: seed)
        let author = userIds.first ?? 10
        var lists: [SPList] = []
        var files: [SPFile] = []

        // Documents ("Shared Documents")
        let documents = library(seed: seed, title: "Documents", url: "/Shared Documents")
        let documentFiles: [(String, FileContent)] = [
            ("Welcome.txt", .bytes(Array("Welcome to the SPSim team site.\n".utf8))),
            ("Budget 2026.csv", .bytes(Array("Quarter,Amount\nQ1,1200\nQ2,1350\nQ3,990\nQ4,1610\n".utf8))),
            ("O'Brien notes.txt", .bytes(Array("Quotes in names must be doubled in OData literals.\n".utf8))),
            ("large.bin", .generated(length: 8 * 1024 * 1024, seed: seed)),
            (SiteContent.largeFileName, .generated(length: SiteContent.largeFileLength, seed: seed ^ 0x50_4D42)),
        ]
        for (name, content) in documentFiles {
            addFile(to: documents, name: name, content: content, seed: seed, author: author, files: &files)
        }
        lists.append(documents)

        // Photos (picture library with real images)
        let photos = library(
            seed: seed, title: "Photos", url: "/Photos", template: 109,
            extraFields: [
                field(seed, "Photos", "ImageWidth", "Picture Width", "Integer", 1, readOnly: true),
                field(seed, "Photos", "ImageHeight", "Picture Height", "Integer", 1, readOnly: true),
            ])
        let pictures: [(String, Int, Int, [UInt8])] = [
            (
                "sunset.png", 32, 24,
                Images.png(width: 32, height: 24) { x, y in (UInt8(200 + x), UInt8(80 + y * 4), 40) }
            ),
            (
                "sea.png", 24, 24,
                Images.png(width: 24, height: 24) { x, y in (20, UInt8(100 + x * 3), UInt8(180 + y * 2)) }
            ),
            (
                "checker.png", 16, 16,
                Images.png(width: 16, height: 16) { x, y in (x / 4 + y / 4) % 2 == 0 ? (0, 0, 0) : (255, 255, 255) }
            ),
            ("logo.svg", 64, 64, Images.svg(width: 64, height: 64, title: "SPSim")),
        ]
        for (name, width, height, bytes) in pictures {
            addFile(to: photos, name: name, content: .bytes(bytes), seed: seed, author: author, files: &files)
            photos.stored[photos.nextId - 1]?.values["ImageWidth"] = .number(Double(width))
            photos.stored[photos.nextId - 1]?.values["ImageHeight"] = .number(Double(height))
        }
        photos.defaultViewFields = ["DocIcon", "LinkFilename", "ImageWidth", "ImageHeight", "Modified", "Editor"]
        lists.append(photos)

        // Tasks (mixed field types)
        let tasks = SPList(
            id: stableGUID(seed, "list/Tasks"), title: "Tasks", baseTemplate: 100, url: "/Lists/Tasks",
            fields: standardFields(seed: seed, listLabel: "Tasks")
                + [
                    field(seed, "Tasks", "Priority", "Priority", "Number", 9),
                    field(seed, "Tasks", "DueDate", "Due Date", "DateTime", 4),
                    field(
                        seed, "Tasks", "Status", "Status", "Choice", 6,
                        choices: ["Not Started", "In Progress", "Completed", "Deferred"]),
                    field(seed, "Tasks", "Completed", "Completed", "Boolean", 8),
                    field(seed, "Tasks", "AssignedTo", "Assigned To", "User", 20),
                ], created: baseEpoch, description: "Team tasks")
        let taskTitles = [
            "Plan the kickoff", "Review budget", "Order new laptops", "Update the wiki", "Fix the printer",
            "Write the newsletter", "Book the venue", "Prepare slides", "Call the supplier", "Archive old files",
            "Renew certificates", "Test backups", "Team lunch", "Quarterly report", "Clean shared drive",
            "O'Brien's onboarding", "Security training", "Migrate mailbox", "Survey results", "Close the project",
        ]
        let statuses = ["Not Started", "In Progress", "Completed", "Deferred"]
        for (index, title) in taskTitles.enumerated() {
            let id = index + 1
            let status = statuses[random.next(below: statuses.count)]
            let created = baseEpoch + index * 86400
            tasks.stored[id] = ListItem(
                id: id,
                values: [
                    "Title": .text(title), "Priority": .number(Double(1 + random.next(below: 3))),
                    "DueDate": .date(baseEpoch + (index + 7) * 86400), "Status": .text(status),
                    "Completed": .bool(status == "Completed"),
                    "AssignedTo": .lookup(userIds[random.next(below: max(userIds.count, 1)) % max(userIds.count, 1)]),
                ], version: 1, created: created, modified: created + 3600, authorId: author, editorId: author,
                guid: stableGUID(seed, "item/Tasks/\(id)"))
        }
        tasks.nextId = taskTitles.count + 1
        tasks.attachments[1] = [
            SPAttachment(name: "agenda.txt", bytes: Array("Kickoff agenda: goals, roles, dates.\n".utf8)),
            SPAttachment(name: "O'Brien plan.txt", bytes: Array("Quotes in attachment names are doubled.\n".utf8)),
        ]
        tasks.defaultViewFields = [
            "Checkmark", "LinkTitle", "Priority", "Status", "DueDate", "Completed", "AssignedTo", "Modified", "Editor",
        ]
        lists.append(tasks)

        // Two small generic lists (one with an underscore, to show _x005f_ escaping).
        for (title, url, rows) in [
            ("Projects", "/Lists/Projects", ["Intranet refresh", "Office move", "ERP upgrade"]),
            ("Asset_Register", "/Lists/Asset_Register", ["Laptop 0042", "Projector 7"]),
        ] {
            let list = SPList(
                id: stableGUID(seed, "list/" + title), title: title, baseTemplate: 100, url: url,
                fields: standardFields(seed: seed, listLabel: title) + BulkWriteSeed.fields(seed: seed, list: title),
                created: baseEpoch)
            for (index, row) in rows.enumerated() {
                list.stored[index + 1] = ListItem(
                    id: index + 1, values: ["Title": .text(row)], version: 1, created: baseEpoch + index * 600,
                    modified: baseEpoch + index * 600, authorId: author, editorId: author,
                    guid: stableGUID(seed, "item/\(title)/\(index + 1)"))
            }
            list.nextId = rows.count + 1
            lists.append(list)
        }

        // Big (lazily generated)
        let big = SPList(
            id: stableGUID(seed, "list/Big"), title: "Big", baseTemplate: 100, url: "/Lists/Big",
            fields: standardFields(seed: seed, listLabel: "Big")
                + [
                    field(seed, "Big", "Number", "Number", "Number", 9),
                    field(
                        seed, "Big", "Category", "Category", "Choice", 6, indexed: true,
                        choices: ["Red", "Green", "Blue", "Amber"]),
                    field(seed, "Big", "When", "When", "DateTime", 4),
                ], created: baseEpoch)
        big.generatedCount = bigItems
        big.defaultViewFields = ["LinkTitle", "Number", "Category", "When"]
        big.nextId = bigItems + 1
        let categories = ["Red", "Green", "Blue", "Amber"]
        big.generator = { id in
            let hash = mix(seed, id, 0xB16)
            let created = baseEpoch + id * 60
            return ListItem(
                id: id,
                values: [
                    "Title": .text("Item \(id)"), "Number": .number(Double(hash % 1000)),
                    "Category": .text(categories[Int((hash >> 12) % 4)]), "When": .date(baseEpoch + id * 3600),
                ], version: 1, created: created, modified: created, authorId: author, editorId: author,
                guid: guidText(mix(seed, id, 0x6A1D), mix(seed, id, 0x6A1E)))
        }
        lists.append(big)
        return (lists, files)
    }

    /// Adds a file and its list item to a library.
    static func addFile(
        to list: SPList, folder: String? = nil, name: String, content: FileContent, seed: UInt64, author: Int,
        files: inout [SPFile]
    ) {
        let id = list.nextId
        list.nextId += 1
        let created = baseEpoch + id * 7200
        let folder = folder ?? list.url
        let file = SPFile(
            name: name, folder: folder, content: content, uniqueId: stableGUID(seed, "file\(folder)/\(name)"),
            majorVersion: 1, created: created, modified: created, listId: list.id, itemId: id)
        let baseName = name.split(separator: ".").dropLast().joined(separator: ".")
        list.stored[id] = ListItem(
            id: id,
            values: [
                "Title": .null, "FileLeafRef": .text(name), "FileRef": .text(file.serverRelativeUrl),
                "_baseName": .text(baseName),
            ], version: 1, created: created, modified: created, authorId: author, editorId: author,
            guid: stableGUID(seed, "item\(list.url)/\(id)"))
        files.append(file)
    }
}
