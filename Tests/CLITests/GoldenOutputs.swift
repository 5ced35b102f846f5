// Golden outputs of `spconnect lists` and `spconnect items Tasks` against spsim's fixed content.
// The simulator URL is written as http://SITE; CSV lines end in CRLF (compared after turning CRLF into LF).
// Regenerate by running the commands against `spsim --mode entra` and reviewing the difference.

enum Golden {
    static let listsTable = #"""
        Title           Items  Kind     Template  Hidden  Id                                    Last item modified
        --------------  -----  -------  --------  ------  ------------------------------------  --------------------
        Documents           5  library       101  false   bdb5abdf-10d3-441b-b18f-8ab26bfb9097  2026-01-05T09:00:00Z
        Photos              4  library       109  false   a2d20bd2-21d3-4895-9dc4-905568d8b629  2026-01-05T09:00:00Z
        Tasks              20  list          100  false   64c93619-d95c-41d1-9b7f-5cf0f62911fd  2026-01-05T09:00:00Z
        Projects            3  list          100  false   57d80601-2d8f-4247-a657-f87e6fc13d4e  2026-01-05T09:00:00Z
        Asset_Register      2  list          100  false   c539dee5-85ed-43b8-a63a-901e09ba66e2  2026-01-05T09:00:00Z
        Big                 0  list          100  false   1a5545d2-aaaa-44b9-b16f-cd8868351ffb  2026-01-05T09:00:00Z
        """#

    static let listsJson = #"""
        [
          {
            "title": "Documents",
            "itemCount": 5,
            "kind": "library",
            "baseTemplate": 101,
            "hidden": false,
            "id": "bdb5abdf-10d3-441b-b18f-8ab26bfb9097",
            "lastItemModified": "2026-01-05T09:00:00Z"
          },
          {
            "title": "Photos",
            "itemCount": 4,
            "kind": "library",
            "baseTemplate": 109,
            "hidden": false,
            "id": "a2d20bd2-21d3-4895-9dc4-905568d8b629",
            "lastItemModified": "2026-01-05T09:00:00Z"
          },
          {
            "title": "Tasks",
            "itemCount": 20,
            "kind": "list",
            "baseTemplate": 100,
            "hidden": false,
            "id": "64c93619-d95c-41d1-9b7f-5cf0f62911fd",
            "lastItemModified": "2026-01-05T09:00:00Z"
          },
          {
            "title": "Projects",
            "itemCount": 3,
            "kind": "list",
            "baseTemplate": 100,
            "hidden": false,
            "id": "57d80601-2d8f-4247-a657-f87e6fc13d4e",
            "lastItemModified": "2026-01-05T09:00:00Z"
          },
          {
            "title": "Asset_Register",
            "itemCount": 2,
            "kind": "list",
            "baseTemplate": 100,
            "hidden": false,
            "id": "c539dee5-85ed-43b8-a63a-901e09ba66e2",
            "lastItemModified": "2026-01-05T09:00:00Z"
          },
          {
            "title": "Big",
            "itemCount": 0,
            "kind": "list",
            "baseTemplate": 100,
            "hidden": false,
            "id": "1a5545d2-aaaa-44b9-b16f-cd8868351ffb",
            "lastItemModified": "2026-01-05T09:00:00Z"
          }
        ]
        """#

    static let listsCsv = #"""
        Title,Items,Kind,Template,Hidden,Id,Last item modified
        Documents,5,library,101,false,bdb5abdf-10d3-441b-b18f-8ab26bfb9097,2026-01-05T09:00:00Z
        Photos,4,library,109,false,a2d20bd2-21d3-4895-9dc4-905568d8b629,2026-01-05T09:00:00Z
        Tasks,20,list,100,false,64c93619-d95c-41d1-9b7f-5cf0f62911fd,2026-01-05T09:00:00Z
        Projects,3,list,100,false,57d80601-2d8f-4247-a657-f87e6fc13d4e,2026-01-05T09:00:00Z
        Asset_Register,2,list,100,false,c539dee5-85ed-43b8-a63a-901e09ba66e2,2026-01-05T09:00:00Z
        Big,0,list,100,false,1a5545d2-aaaa-44b9-b16f-cd8868351ffb,2026-01-05T09:00:00Z
        """#

    static let listsNdjson = #"""
        {"title":"Documents","itemCount":5,"kind":"library","baseTemplate":101,"hidden":false,"id":"bdb5abdf-10d3-441b-b18f-8ab26bfb9097","lastItemModified":"2026-01-05T09:00:00Z"}
        {"title":"Photos","itemCount":4,"kind":"library","baseTemplate":109,"hidden":false,"id":"a2d20bd2-21d3-4895-9dc4-905568d8b629","lastItemModified":"2026-01-05T09:00:00Z"}
        {"title":"Tasks","itemCount":20,"kind":"list","baseTemplate":100,"hidden":false,"id":"64c93619-d95c-41d1-9b7f-5cf0f62911fd","lastItemModified":"2026-01-05T09:00:00Z"}
        {"title":"Projects","itemCount":3,"kind":"list","baseTemplate":100,"hidden":false,"id":"57d80601-2d8f-4247-a657-f87e6fc13d4e","lastItemModified":"2026-01-05T09:00:00Z"}
        {"title":"Asset_Register","itemCount":2,"kind":"list","baseTemplate":100,"hidden":false,"id":"c539dee5-85ed-43b8-a63a-901e09ba66e2","lastItemModified":"2026-01-05T09:00:00Z"}
        {"title":"Big","itemCount":0,"kind":"list","baseTemplate":100,"hidden":false,"id":"1a5545d2-aaaa-44b9-b16f-cd8868351ffb","lastItemModified":"2026-01-05T09:00:00Z"}
        """#

    static let tasksItemsTable = #"""
        Id  Title                 Priority  DueDate               Status       Completed  AssignedToId  Modified              Created               AuthorId  EditorId
        --  --------------------  --------  --------------------  -----------  ---------  ------------  --------------------  --------------------  --------  --------
         1  Plan the kickoff             3  2026-01-12T09:00:00Z  Deferred     false                12  2026-01-05T10:00:00Z  2026-01-05T09:00:00Z        10        10
         2  Review budget                1  2026-01-13T09:00:00Z  Completed    true                 13  2026-01-06T10:00:00Z  2026-01-06T09:00:00Z        10        10
         3  Order new laptops            2  2026-01-14T09:00:00Z  Completed    true                 10  2026-01-07T10:00:00Z  2026-01-07T09:00:00Z        10        10
         4  Update the wiki              2  2026-01-15T09:00:00Z  Completed    true                 10  2026-01-08T10:00:00Z  2026-01-08T09:00:00Z        10        10
         5  Fix the printer              2  2026-01-16T09:00:00Z  Not Started  false                11  2026-01-09T10:00:00Z  2026-01-09T09:00:00Z        10        10
         6  Write the newsletter         2  2026-01-17T09:00:00Z  In Progress  false                13  2026-01-10T10:00:00Z  2026-01-10T09:00:00Z        10        10
         7  Book the venue               2  2026-01-18T09:00:00Z  Deferred     false                10  2026-01-11T10:00:00Z  2026-01-11T09:00:00Z        10        10
         8  Prepare slides               3  2026-01-19T09:00:00Z  Not Started  false                12  2026-01-12T10:00:00Z  2026-01-12T09:00:00Z        10        10
         9  Call the supplier            3  2026-01-20T09:00:00Z  In Progress  false                13  2026-01-13T10:00:00Z  2026-01-13T09:00:00Z        10        10
        10  Archive old files            1  2026-01-21T09:00:00Z  Completed    true                 10  2026-01-14T10:00:00Z  2026-01-14T09:00:00Z        10        10
        11  Renew certificates           1  2026-01-22T09:00:00Z  Completed    true                 11  2026-01-15T10:00:00Z  2026-01-15T09:00:00Z        10        10
        12  Test backups                 3  2026-01-23T09:00:00Z  Deferred     false                13  2026-01-16T10:00:00Z  2026-01-16T09:00:00Z        10        10
        13  Team lunch                   3  2026-01-24T09:00:00Z  Completed    true                 12  2026-01-17T10:00:00Z  2026-01-17T09:00:00Z        10        10
        14  Quarterly report             1  2026-01-25T09:00:00Z  Completed    true                 13  2026-01-18T10:00:00Z  2026-01-18T09:00:00Z        10        10
        15  Clean shared drive           2  2026-01-26T09:00:00Z  In Progress  false                11  2026-01-19T10:00:00Z  2026-01-19T09:00:00Z        10        10
        16  O'Brien's onboarding         2  2026-01-27T09:00:00Z  Not Started  false                12  2026-01-20T10:00:00Z  2026-01-20T09:00:00Z        10        10
        17  Security training            2  2026-01-28T09:00:00Z  Completed    true                 10  2026-01-21T10:00:00Z  2026-01-21T09:00:00Z        10        10
        18  Migrate mailbox              2  2026-01-29T09:00:00Z  Not Started  false                12  2026-01-22T10:00:00Z  2026-01-22T09:00:00Z        10        10
        19  Survey results               2  2026-01-30T09:00:00Z  In Progress  false                12  2026-01-23T10:00:00Z  2026-01-23T09:00:00Z        10        10
        20  Close the project            1  2026-01-31T09:00:00Z  In Progress  false                12  2026-01-24T10:00:00Z  2026-01-24T09:00:00Z        10        10
        """#

    static let tasksItemsJson = #"""
        [
          {
            "FileSystemObjectType": 0,
            "Id": 1,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Plan the kickoff",
            "Priority": 3,
            "DueDate": "2026-01-12T09:00:00Z",
            "Status": "Deferred",
            "Completed": false,
            "AssignedToId": 12,
            "ID": 1,
            "Modified": "2026-01-05T10:00:00Z",
            "Created": "2026-01-05T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "c2391f30-4da6-42f3-bb0e-780e72f8b63b"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 2,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Review budget",
            "Priority": 1,
            "DueDate": "2026-01-13T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 13,
            "ID": 2,
            "Modified": "2026-01-06T10:00:00Z",
            "Created": "2026-01-06T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "82c23e19-92e7-4bb3-9f4f-c1110751fe39"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 3,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Order new laptops",
            "Priority": 2,
            "DueDate": "2026-01-14T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 10,
            "ID": 3,
            "Modified": "2026-01-07T10:00:00Z",
            "Created": "2026-01-07T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "a8ad9690-78d3-4001-b25d-82a0e8190ddf"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 4,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Update the wiki",
            "Priority": 2,
            "DueDate": "2026-01-15T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 10,
            "ID": 4,
            "Modified": "2026-01-08T10:00:00Z",
            "Created": "2026-01-08T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "93ad2b40-3d24-4182-9362-206161ffb905"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 5,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Fix the printer",
            "Priority": 2,
            "DueDate": "2026-01-16T09:00:00Z",
            "Status": "Not Started",
            "Completed": false,
            "AssignedToId": 11,
            "ID": 5,
            "Modified": "2026-01-09T10:00:00Z",
            "Created": "2026-01-09T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "19f420b3-5406-495b-a171-d0e3c3aa7f42"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 6,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Write the newsletter",
            "Priority": 2,
            "DueDate": "2026-01-17T09:00:00Z",
            "Status": "In Progress",
            "Completed": false,
            "AssignedToId": 13,
            "ID": 6,
            "Modified": "2026-01-10T10:00:00Z",
            "Created": "2026-01-10T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "4aceaed2-9c75-4c15-9e45-475a7467a451"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 7,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Book the venue",
            "Priority": 2,
            "DueDate": "2026-01-18T09:00:00Z",
            "Status": "Deferred",
            "Completed": false,
            "AssignedToId": 10,
            "ID": 7,
            "Modified": "2026-01-11T10:00:00Z",
            "Created": "2026-01-11T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "bf2af124-e69b-462b-879f-86756cb8e6a0"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 8,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Prepare slides",
            "Priority": 3,
            "DueDate": "2026-01-19T09:00:00Z",
            "Status": "Not Started",
            "Completed": false,
            "AssignedToId": 12,
            "ID": 8,
            "Modified": "2026-01-12T10:00:00Z",
            "Created": "2026-01-12T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "925c8487-ca84-457c-a2ad-a93ee559ff9e"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 9,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Call the supplier",
            "Priority": 3,
            "DueDate": "2026-01-20T09:00:00Z",
            "Status": "In Progress",
            "Completed": false,
            "AssignedToId": 13,
            "ID": 9,
            "Modified": "2026-01-13T10:00:00Z",
            "Created": "2026-01-13T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "b0e2e1bf-1dae-44dd-a4a1-550c0cdc6222"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 10,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Archive old files",
            "Priority": 1,
            "DueDate": "2026-01-21T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 10,
            "ID": 10,
            "Modified": "2026-01-14T10:00:00Z",
            "Created": "2026-01-14T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "e5e947b4-952c-406b-9f42-611c17525ed5"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 11,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Renew certificates",
            "Priority": 1,
            "DueDate": "2026-01-22T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 11,
            "ID": 11,
            "Modified": "2026-01-15T10:00:00Z",
            "Created": "2026-01-15T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "bf17b077-b031-4fea-a79a-66f2a57006d2"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 12,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Test backups",
            "Priority": 3,
            "DueDate": "2026-01-23T09:00:00Z",
            "Status": "Deferred",
            "Completed": false,
            "AssignedToId": 13,
            "ID": 12,
            "Modified": "2026-01-16T10:00:00Z",
            "Created": "2026-01-16T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "2fb981b6-10ad-4977-a985-d3308dab44fe"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 13,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Team lunch",
            "Priority": 3,
            "DueDate": "2026-01-24T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 12,
            "ID": 13,
            "Modified": "2026-01-17T10:00:00Z",
            "Created": "2026-01-17T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "10b7f848-aa3d-4fc1-9dbd-2a235158f385"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 14,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Quarterly report",
            "Priority": 1,
            "DueDate": "2026-01-25T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 13,
            "ID": 14,
            "Modified": "2026-01-18T10:00:00Z",
            "Created": "2026-01-18T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "3b377b9e-fe5a-4e9e-89ad-075811b3d638"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 15,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Clean shared drive",
            "Priority": 2,
            "DueDate": "2026-01-26T09:00:00Z",
            "Status": "In Progress",
            "Completed": false,
            "AssignedToId": 11,
            "ID": 15,
            "Modified": "2026-01-19T10:00:00Z",
            "Created": "2026-01-19T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "2093a84a-08fa-41e7-b421-39f4dde5324f"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 16,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "O'Brien's onboarding",
            "Priority": 2,
            "DueDate": "2026-01-27T09:00:00Z",
            "Status": "Not Started",
            "Completed": false,
            "AssignedToId": 12,
            "ID": 16,
            "Modified": "2026-01-20T10:00:00Z",
            "Created": "2026-01-20T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "cc8fe5f4-dab0-4e0a-a9ef-28241d2c2c02"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 17,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Security training",
            "Priority": 2,
            "DueDate": "2026-01-28T09:00:00Z",
            "Status": "Completed",
            "Completed": true,
            "AssignedToId": 10,
            "ID": 17,
            "Modified": "2026-01-21T10:00:00Z",
            "Created": "2026-01-21T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "193e69f5-1740-4ea0-840b-ade456ec7f38"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 18,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Migrate mailbox",
            "Priority": 2,
            "DueDate": "2026-01-29T09:00:00Z",
            "Status": "Not Started",
            "Completed": false,
            "AssignedToId": 12,
            "ID": 18,
            "Modified": "2026-01-22T10:00:00Z",
            "Created": "2026-01-22T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "b596853d-deb9-428a-9e0e-ab9cdd5ed49d"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 19,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Survey results",
            "Priority": 2,
            "DueDate": "2026-01-30T09:00:00Z",
            "Status": "In Progress",
            "Completed": false,
            "AssignedToId": 12,
            "ID": 19,
            "Modified": "2026-01-23T10:00:00Z",
            "Created": "2026-01-23T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "3262b08d-0e80-412a-993b-4e4350afc5a5"
          },
          {
            "FileSystemObjectType": 0,
            "Id": 20,
            "ServerRedirectedEmbedUri": null,
            "ServerRedirectedEmbedUrl": "",
            "ContentTypeId": "0x010064C93619D95C41D19B7F5CF0F62911FD",
            "Title": "Close the project",
            "Priority": 1,
            "DueDate": "2026-01-31T09:00:00Z",
            "Status": "In Progress",
            "Completed": false,
            "AssignedToId": 12,
            "ID": 20,
            "Modified": "2026-01-24T10:00:00Z",
            "Created": "2026-01-24T09:00:00Z",
            "AuthorId": 10,
            "EditorId": 10,
            "OData__UIVersionString": "1.0",
            "Attachments": false,
            "GUID": "f00dacfa-5252-4a8c-b013-3659326215ef"
          }
        ]
        """#

    static let tasksItemsCsv = #"""
        FileSystemObjectType,Id,ServerRedirectedEmbedUri,ServerRedirectedEmbedUrl,ContentTypeId,Title,Priority,DueDate,Status,Completed,AssignedToId,ID,Modified,Created,AuthorId,EditorId,OData__UIVersionString,Attachments,GUID
        0,1,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Plan the kickoff,3,2026-01-12T09:00:00Z,Deferred,false,12,1,2026-01-05T10:00:00Z,2026-01-05T09:00:00Z,10,10,1.0,false,c2391f30-4da6-42f3-bb0e-780e72f8b63b
        0,2,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Review budget,1,2026-01-13T09:00:00Z,Completed,true,13,2,2026-01-06T10:00:00Z,2026-01-06T09:00:00Z,10,10,1.0,false,82c23e19-92e7-4bb3-9f4f-c1110751fe39
        0,3,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Order new laptops,2,2026-01-14T09:00:00Z,Completed,true,10,3,2026-01-07T10:00:00Z,2026-01-07T09:00:00Z,10,10,1.0,false,a8ad9690-78d3-4001-b25d-82a0e8190ddf
        0,4,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Update the wiki,2,2026-01-15T09:00:00Z,Completed,true,10,4,2026-01-08T10:00:00Z,2026-01-08T09:00:00Z,10,10,1.0,false,93ad2b40-3d24-4182-9362-206161ffb905
        0,5,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Fix the printer,2,2026-01-16T09:00:00Z,Not Started,false,11,5,2026-01-09T10:00:00Z,2026-01-09T09:00:00Z,10,10,1.0,false,19f420b3-5406-495b-a171-d0e3c3aa7f42
        0,6,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Write the newsletter,2,2026-01-17T09:00:00Z,In Progress,false,13,6,2026-01-10T10:00:00Z,2026-01-10T09:00:00Z,10,10,1.0,false,4aceaed2-9c75-4c15-9e45-475a7467a451
        0,7,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Book the venue,2,2026-01-18T09:00:00Z,Deferred,false,10,7,2026-01-11T10:00:00Z,2026-01-11T09:00:00Z,10,10,1.0,false,bf2af124-e69b-462b-879f-86756cb8e6a0
        0,8,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Prepare slides,3,2026-01-19T09:00:00Z,Not Started,false,12,8,2026-01-12T10:00:00Z,2026-01-12T09:00:00Z,10,10,1.0,false,925c8487-ca84-457c-a2ad-a93ee559ff9e
        0,9,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Call the supplier,3,2026-01-20T09:00:00Z,In Progress,false,13,9,2026-01-13T10:00:00Z,2026-01-13T09:00:00Z,10,10,1.0,false,b0e2e1bf-1dae-44dd-a4a1-550c0cdc6222
        0,10,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Archive old files,1,2026-01-21T09:00:00Z,Completed,true,10,10,2026-01-14T10:00:00Z,2026-01-14T09:00:00Z,10,10,1.0,false,e5e947b4-952c-406b-9f42-611c17525ed5
        0,11,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Renew certificates,1,2026-01-22T09:00:00Z,Completed,true,11,11,2026-01-15T10:00:00Z,2026-01-15T09:00:00Z,10,10,1.0,false,bf17b077-b031-4fea-a79a-66f2a57006d2
        0,12,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Test backups,3,2026-01-23T09:00:00Z,Deferred,false,13,12,2026-01-16T10:00:00Z,2026-01-16T09:00:00Z,10,10,1.0,false,2fb981b6-10ad-4977-a985-d3308dab44fe
        0,13,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Team lunch,3,2026-01-24T09:00:00Z,Completed,true,12,13,2026-01-17T10:00:00Z,2026-01-17T09:00:00Z,10,10,1.0,false,10b7f848-aa3d-4fc1-9dbd-2a235158f385
        0,14,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Quarterly report,1,2026-01-25T09:00:00Z,Completed,true,13,14,2026-01-18T10:00:00Z,2026-01-18T09:00:00Z,10,10,1.0,false,3b377b9e-fe5a-4e9e-89ad-075811b3d638
        0,15,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Clean shared drive,2,2026-01-26T09:00:00Z,In Progress,false,11,15,2026-01-19T10:00:00Z,2026-01-19T09:00:00Z,10,10,1.0,false,2093a84a-08fa-41e7-b421-39f4dde5324f
        0,16,,,0x010064C93619D95C41D19B7F5CF0F62911FD,O'Brien's onboarding,2,2026-01-27T09:00:00Z,Not Started,false,12,16,2026-01-20T10:00:00Z,2026-01-20T09:00:00Z,10,10,1.0,false,cc8fe5f4-dab0-4e0a-a9ef-28241d2c2c02
        0,17,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Security training,2,2026-01-28T09:00:00Z,Completed,true,10,17,2026-01-21T10:00:00Z,2026-01-21T09:00:00Z,10,10,1.0,false,193e69f5-1740-4ea0-840b-ade456ec7f38
        0,18,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Migrate mailbox,2,2026-01-29T09:00:00Z,Not Started,false,12,18,2026-01-22T10:00:00Z,2026-01-22T09:00:00Z,10,10,1.0,false,b596853d-deb9-428a-9e0e-ab9cdd5ed49d
        0,19,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Survey results,2,2026-01-30T09:00:00Z,In Progress,false,12,19,2026-01-23T10:00:00Z,2026-01-23T09:00:00Z,10,10,1.0,false,3262b08d-0e80-412a-993b-4e4350afc5a5
        0,20,,,0x010064C93619D95C41D19B7F5CF0F62911FD,Close the project,1,2026-01-31T09:00:00Z,In Progress,false,12,20,2026-01-24T10:00:00Z,2026-01-24T09:00:00Z,10,10,1.0,false,f00dacfa-5252-4a8c-b013-3659326215ef
        """#

    static let tasksItemsNdjson = #"""
        {"FileSystemObjectType":0,"Id":1,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Plan the kickoff","Priority":3,"DueDate":"2026-01-12T09:00:00Z","Status":"Deferred","Completed":false,"AssignedToId":12,"ID":1,"Modified":"2026-01-05T10:00:00Z","Created":"2026-01-05T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"c2391f30-4da6-42f3-bb0e-780e72f8b63b"}
        {"FileSystemObjectType":0,"Id":2,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Review budget","Priority":1,"DueDate":"2026-01-13T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":13,"ID":2,"Modified":"2026-01-06T10:00:00Z","Created":"2026-01-06T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"82c23e19-92e7-4bb3-9f4f-c1110751fe39"}
        {"FileSystemObjectType":0,"Id":3,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Order new laptops","Priority":2,"DueDate":"2026-01-14T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":10,"ID":3,"Modified":"2026-01-07T10:00:00Z","Created":"2026-01-07T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"a8ad9690-78d3-4001-b25d-82a0e8190ddf"}
        {"FileSystemObjectType":0,"Id":4,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Update the wiki","Priority":2,"DueDate":"2026-01-15T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":10,"ID":4,"Modified":"2026-01-08T10:00:00Z","Created":"2026-01-08T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"93ad2b40-3d24-4182-9362-206161ffb905"}
        {"FileSystemObjectType":0,"Id":5,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Fix the printer","Priority":2,"DueDate":"2026-01-16T09:00:00Z","Status":"Not Started","Completed":false,"AssignedToId":11,"ID":5,"Modified":"2026-01-09T10:00:00Z","Created":"2026-01-09T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"19f420b3-5406-495b-a171-d0e3c3aa7f42"}
        {"FileSystemObjectType":0,"Id":6,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Write the newsletter","Priority":2,"DueDate":"2026-01-17T09:00:00Z","Status":"In Progress","Completed":false,"AssignedToId":13,"ID":6,"Modified":"2026-01-10T10:00:00Z","Created":"2026-01-10T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"4aceaed2-9c75-4c15-9e45-475a7467a451"}
        {"FileSystemObjectType":0,"Id":7,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Book the venue","Priority":2,"DueDate":"2026-01-18T09:00:00Z","Status":"Deferred","Completed":false,"AssignedToId":10,"ID":7,"Modified":"2026-01-11T10:00:00Z","Created":"2026-01-11T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"bf2af124-e69b-462b-879f-86756cb8e6a0"}
        {"FileSystemObjectType":0,"Id":8,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Prepare slides","Priority":3,"DueDate":"2026-01-19T09:00:00Z","Status":"Not Started","Completed":false,"AssignedToId":12,"ID":8,"Modified":"2026-01-12T10:00:00Z","Created":"2026-01-12T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"925c8487-ca84-457c-a2ad-a93ee559ff9e"}
        {"FileSystemObjectType":0,"Id":9,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Call the supplier","Priority":3,"DueDate":"2026-01-20T09:00:00Z","Status":"In Progress","Completed":false,"AssignedToId":13,"ID":9,"Modified":"2026-01-13T10:00:00Z","Created":"2026-01-13T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"b0e2e1bf-1dae-44dd-a4a1-550c0cdc6222"}
        {"FileSystemObjectType":0,"Id":10,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Archive old files","Priority":1,"DueDate":"2026-01-21T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":10,"ID":10,"Modified":"2026-01-14T10:00:00Z","Created":"2026-01-14T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"e5e947b4-952c-406b-9f42-611c17525ed5"}
        {"FileSystemObjectType":0,"Id":11,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Renew certificates","Priority":1,"DueDate":"2026-01-22T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":11,"ID":11,"Modified":"2026-01-15T10:00:00Z","Created":"2026-01-15T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"bf17b077-b031-4fea-a79a-66f2a57006d2"}
        {"FileSystemObjectType":0,"Id":12,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Test backups","Priority":3,"DueDate":"2026-01-23T09:00:00Z","Status":"Deferred","Completed":false,"AssignedToId":13,"ID":12,"Modified":"2026-01-16T10:00:00Z","Created":"2026-01-16T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"2fb981b6-10ad-4977-a985-d3308dab44fe"}
        {"FileSystemObjectType":0,"Id":13,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Team lunch","Priority":3,"DueDate":"2026-01-24T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":12,"ID":13,"Modified":"2026-01-17T10:00:00Z","Created":"2026-01-17T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"10b7f848-aa3d-4fc1-9dbd-2a235158f385"}
        {"FileSystemObjectType":0,"Id":14,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Quarterly report","Priority":1,"DueDate":"2026-01-25T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":13,"ID":14,"Modified":"2026-01-18T10:00:00Z","Created":"2026-01-18T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"3b377b9e-fe5a-4e9e-89ad-075811b3d638"}
        {"FileSystemObjectType":0,"Id":15,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Clean shared drive","Priority":2,"DueDate":"2026-01-26T09:00:00Z","Status":"In Progress","Completed":false,"AssignedToId":11,"ID":15,"Modified":"2026-01-19T10:00:00Z","Created":"2026-01-19T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"2093a84a-08fa-41e7-b421-39f4dde5324f"}
        {"FileSystemObjectType":0,"Id":16,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"O'Brien's onboarding","Priority":2,"DueDate":"2026-01-27T09:00:00Z","Status":"Not Started","Completed":false,"AssignedToId":12,"ID":16,"Modified":"2026-01-20T10:00:00Z","Created":"2026-01-20T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"cc8fe5f4-dab0-4e0a-a9ef-28241d2c2c02"}
        {"FileSystemObjectType":0,"Id":17,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Security training","Priority":2,"DueDate":"2026-01-28T09:00:00Z","Status":"Completed","Completed":true,"AssignedToId":10,"ID":17,"Modified":"2026-01-21T10:00:00Z","Created":"2026-01-21T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"193e69f5-1740-4ea0-840b-ade456ec7f38"}
        {"FileSystemObjectType":0,"Id":18,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Migrate mailbox","Priority":2,"DueDate":"2026-01-29T09:00:00Z","Status":"Not Started","Completed":false,"AssignedToId":12,"ID":18,"Modified":"2026-01-22T10:00:00Z","Created":"2026-01-22T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"b596853d-deb9-428a-9e0e-ab9cdd5ed49d"}
        {"FileSystemObjectType":0,"Id":19,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Survey results","Priority":2,"DueDate":"2026-01-30T09:00:00Z","Status":"In Progress","Completed":false,"AssignedToId":12,"ID":19,"Modified":"2026-01-23T10:00:00Z","Created":"2026-01-23T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"3262b08d-0e80-412a-993b-4e4350afc5a5"}
        {"FileSystemObjectType":0,"Id":20,"ServerRedirectedEmbedUri":null,"ServerRedirectedEmbedUrl":"","ContentTypeId":"0x010064C93619D95C41D19B7F5CF0F62911FD","Title":"Close the project","Priority":1,"DueDate":"2026-01-31T09:00:00Z","Status":"In Progress","Completed":false,"AssignedToId":12,"ID":20,"Modified":"2026-01-24T10:00:00Z","Created":"2026-01-24T09:00:00Z","AuthorId":10,"EditorId":10,"OData__UIVersionString":"1.0","Attachments":false,"GUID":"f00dacfa-5252-4a8c-b013-3659326215ef"}
        """#
}
