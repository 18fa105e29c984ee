/**
 * The API's types, generated from the server's OpenAPI document by `npm -w web run api:types`.
 * Do not edit: change the server and generate again (`npm run api:check` tells when it is stale).
 */

export interface paths {
    "/api/admin/library": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console's list of documents, newest change first. */
        get: operations["admin_library_list"];
        put?: never;
        /** Creates a library document with its first version, as a draft. */
        post: operations["admin_library_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document with every version. */
        get: operations["admin_library_id_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Changes a document's metadata (title, labels, audience, products, programmes, times). */
        patch: operations["change"];
        trace?: never;
    };
    "/api/admin/library/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approves the version in review (released at once, or at `release_at`). */
        post: operations["admin_library_id_approve_approve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every step of a document with its actor. */
        get: operations["admin_library_id_history_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rejects the version in review: it goes back to draft. */
        post: operations["admin_library_id_reject_reject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submits the latest version (a draft) for review. */
        post: operations["admin_library_id_submit_submit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Uploads a new version (a draft); a released one stays released until it is replaced. */
        post: operations["add_version"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/versions/{version}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The file of one version (any status), for review. */
        get: operations["version_file"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraws a document from every list, device, copy and external link. */
        post: operations["admin_library_id_withdraw_withdraw"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/library/{id}/withdrawal-report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who held the document, how, on which devices, and which devices confirmed the purge. */
        get: operations["withdrawal_report"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/news": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The console's news, newest change first, optionally of one status. */
        get: operations["admin_news_list"];
        put?: never;
        /** Writes a news item: version 1, a draft. */
        post: operations["admin_news_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/news/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One console news item with its versions and the latest body. */
        get: operations["admin_news_id_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** A new draft version (the released one stays until this one is released). */
        patch: operations["revise"];
        trace?: never;
    };
    "/api/admin/news/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approves the version in review (not one's own): released now, or at `release_at`. */
        post: operations["admin_news_id_approve_approve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/news/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every step of a console news item, oldest first, with who took it. */
        get: operations["admin_news_id_history_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/news/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends the version in review back to draft with a comment. */
        post: operations["admin_news_id_reject_reject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/news/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submits the latest draft for approval. */
        post: operations["admin_news_id_submit_submit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/news/{id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraws the item: it leaves every rep's list at once. */
        post: operations["admin_news_id_withdraw_withdraw"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publishes a notification to everyone or to chosen users. The message HTML is sanitised; the
         *     addressees get it at once in their list, badge and live feed.
         */
        post: operations["publish_notification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/sessions/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ends one session: its next request answers 401, its sockets close with 4401. */
        post: operations["revoke_session"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/terms-acceptances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The history of terms acceptances, newest first (at most 1,000), for auditors and
         *     administrators.
         */
        get: operations["admin_terms_acceptances_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publishes an app update to everyone. It becomes the `update_id` of every user's next sign-in
         *     until they view it.
         */
        post: operations["publish_update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every account. */
        get: operations["list_users"];
        put?: never;
        /** Creates an account. */
        post: operations["add_user"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disables an account and ends its sessions. */
        post: operations["disable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enables a disabled account again. */
        post: operations["enable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Changes an account's role; its next request runs with the new role. */
        post: operations["set_role"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/users/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An account's sessions, newest first. */
        get: operations["user_sessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What happened to documents and folders across the company, newest first, in pages of at
         *     most 200: who did what to which item, with the same actions and details as an item's
         *     history. Walk the pages by passing `next` as `before`.
         */
        get: operations["audit_activity_activity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/activity.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The same activity as CSV, every entry of the filters (`limit` and `before` are not used),
         *     newest first; streamed as it is read.
         */
        get: operations["activity_csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every document and folder of every user and of the US set whose name contains `q` (any
         *     case), deleted ones included and marked; by name, at most `limit` (200) per answer.
         */
        get: operations["items"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/badges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's unread counters: notifications, app updates and new shared documents. */
        get: operations["badges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calendar/{kind}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Downloads an iCalendar file ('Save in calendar'). */
        get: operations["calendar_file"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/component/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A component's detail. */
        get: operations["component"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/congresses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the congresses and events of a year, in date order. */
        get: operations["congresses_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/congresses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A congress with its tabs: `tabs` maps each tab key (info, details, hotel, day, activities,
         *     messages, media, downloads, contacts) to `{title, content}`. Activity groups hold the
         *     activities themselves, downloads hold documents, and every 'Save in calendar' place has a
         *     `calendar` address.
         */
        get: operations["congresses_id_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/congresses/activities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A congress activity: image, subtitles, location, dates, description, faculty (`experts`),
         *     files, its congress (`parent_id`, `parent_name`) and a `calendar` address.
         */
        get: operations["congresses_activities_id_activity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/congresses/home": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The upcoming congresses and events, for the Home carousel. */
        get: operations["congresses_home_home"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sections of the directory, each with its tab label and entries. */
        get: operations["sections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One entry (subsidiary, office) of the directory. */
        get: operations["subsidiary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/courses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Lists the courses matching the filters, in date order; each card says whether the course has
         *     ended (`ended`).
         */
        get: operations["courses_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/courses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A course: title, category, segment, location (absent for online courses), language,
         *     course_level, videos, images, description, speakers [{preview, name, country}], files,
         *     show_tabs, show_register, evenium (external registration link), show_learn_contact and
         *     learn_contact {email, subject}, save_outlook {start_date, end_date, link} (link = the iCalendar
         *     address, or null) and days [{date_value, date_text, time, title, speakers, description, files}].
         */
        get: operations["courses_id_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/courses/{id}/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Registers the signed-in user to days of a course. */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/courses/{id}/registrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The registrations of a course (course team only). */
        get: operations["courses_id_registrations_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/courses/{id}/registrations.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The registrations of a course as a CSV file (course team only). */
        get: operations["export_csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any of the three lists by `type` (also served at `GET /api/folders?type=`). */
        get: operations["list_by_type"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Opens (or with `?download=1` downloads) a file the user sees; records who read it and
         *     clears its unread mark.
         */
        get: operations["documents_id_file_file"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What happened to a document or folder, newest first, in pages of at most 200 (walk them by
         *     passing `next` as `before`); for whoever sees it, and the auditor. Auditors and the owner
         *     read every entry; anyone else the item's own facts, shares made to them and their own
         *     actions, with folders they cannot see named 'a private folder'.
         */
        get: operations["documents_id_history_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{id}/history.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An item's history as CSV, for the auditor only: every entry, newest first, streamed a
         *     page at a time as it is read.
         */
        get: operations["history_csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The external shares of a document, newest first: every one for its owner and auditors,
         *     their own for a sender.
         */
        get: operations["item_shares"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/external-share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends someone outside the app an expiring link to the tracked viewer (`/s/{token}`): its
         *     opens, pages and downloads reach the sender (`GET /api/documents/{id}/shares`). Without an
         *     SMTP server the e-mail is kept in the outbox table and logged.
         */
        post: operations["external_share"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/favorite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Saves a copy of a shared or US file in My Docs (`save_to_mydocs`). */
        post: operations["save_to_mydocs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Moves a file into a folder or to the root. */
        post: operations["move_file"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/my": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The root of My Docs. */
        get: operations["list_my"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Removes a file from My Docs. */
        post: operations["remove_file"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Shares a file of My Docs with a colleague (`internal_share`). */
        post: operations["share_file"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/shared": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The root of Shared with me. */
        get: operations["list_shared"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's own external shares ("Sent"), newest first, with their documents. */
        get: operations["sent_shares"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/shares/{share_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Takes a link back at once (the sender, the item's owner or an admin): its page, file and
         *     beacon answer 410 from then on. Revoking again changes nothing.
         */
        post: operations["revoke_share"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/storage-share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Shares a document of the company storage (US set) with a colleague (`storage_internal_share`). */
        post: operations["storage_share"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Uploads a PDF or XLS file into My Docs. The content's first bytes (`%PDF-`, or the OLE2
         *     header of XLS) and the file name's extension must agree.
         */
        post: operations["upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's storage usage and quota. */
        get: operations["usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same lists by `type`, at the folders' address. */
        get: operations["list_folders"];
        put?: never;
        /** Creates a folder in My Docs. */
        post: operations["create_folder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A folder's contents in one list; 404 when the user does not see it there. */
        get: operations["folder"];
        put?: never;
        /** Renames a folder or a file. */
        post: operations["rename"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/{id}/as-of": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A folder's contents as they were at `at`, read from the temporal tables of the read model.
         *     Auditors see any folder; others a folder they see now, as far as they could see it at `at`.
         */
        get: operations["folder_as_of"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deletes a folder and everything in it. */
        post: operations["delete_folder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's My Docs folders as a tree (move dialog). */
        get: operations["tree"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Moves a folder into another folder or to the root. */
        post: operations["move_folder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/mydocs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Moves an item shared with the user into My Docs (`move_to_mydocs`): a copy (a folder with
         *     its contents) at the root, and the original leaves Shared with me.
         */
        post: operations["move_to_mydocs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/folders/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Shares a folder (and what it holds) with a colleague. */
        post: operations["share_folder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/guide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tour's steps, in order. */
        get: operations["tour"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: answers as long as the process serves requests. */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/home": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Everything the home screen shows. */
        get: operations["home_home"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/items/{id}/access-as-of": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who could see a document or folder at `at`: its owner and everyone it was shared with then,
         *     directly or through a shared folder above it (the folders as they were then), read from the
         *     temporal tables. For auditors, and owners for their own items.
         */
        get: operations["access_as_of"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/{id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The document's file (PDF or XLS), shown inline by the browser (`?download=1`: as a
         *     download).
         */
        get: operations["library_id_file_file"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/pins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The device pinned these documents for offline use (recorded for the withdrawal report). */
        post: operations["pins"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/purges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The device confirms it purged these documents (one confirmation per document and device). */
        post: operations["purges"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/library/withdrawn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What ended since `since`: a device that was offline purges these before it shows anything. */
        get: operations["withdrawn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's messages (of one round when `roundId` is given), newest first. */
        get: operations["list_messages"];
        put?: never;
        /**
         * Sets the user's status of a message (1, seen, by default). An answered message stays
         *     answered when the app later marks it seen.
         */
        post: operations["set_status"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answers a message's question; the message becomes answered (status 2). A new reply replaces
         *     the earlier one.
         */
        post: operations["reply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/multimedia/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The images, shown three per row. */
        get: operations["images"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/multimedia/video": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The videos (the default section), the hero video apart. */
        get: operations["videos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/news": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The news of one year (default the current one), optionally of one category. */
        get: operations["news_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/news/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One news item with its rich-text description. */
        get: operations["news_id_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/news/home": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest news for the home carousel. */
        get: operations["news_home_home"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user's notifications, newest first, with read flags. */
        get: operations["list_notifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: operations["openapi_json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/product/{id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The product's Documents tab. */
        get: operations["attachments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/product/{id}/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The product's components. */
        get: operations["components"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/product/{id}/details": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The product's Details tab. */
        get: operations["details"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/product/{id}/indepth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The product's in-depth page; 404 when the product has none. */
        get: operations["indepth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The /products screen: segment tiles and the catalogue documents. */
        get: operations["overview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The product segments (home carousel). */
        get: operations["categories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products/category/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A category page with its 'order' and 'subcategory' filters. */
        get: operations["category"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products/segment/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A segment page: its categories and products (the 'Shoulder' segment in two groups) and its
         *     '#ThinkClinical' documents.
         */
        get: operations["segment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/push/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One notification. Opening it marks it read (once; later openings change nothing).
         *     Notifications addressed to other users answer 404, like missing ones.
         */
        get: operations["open_notification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: 200 when the database answers and the projections are within
         *     `READY_MAX_PROJECTION_LAG` events of the store, 503 otherwise.
         */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/s/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the recipient's viewer shows of a link: the company, the sender's name, the document's
         *     title, kind and size, and whether it may be downloaded. Never counts as an open.
         */
        get: operations["info"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/s/{token}/beacon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pages viewed and for how long. The body is JSON, sent as `text/plain` by
         *     `navigator.sendBeacon` (both accepted). Idempotent per `(view, seq)`; 410 once the link is
         *     revoked, expired or ended; 429 over the link's limits.
         */
        post: operations["beacon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/s/{token}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The document of a live link. The first request of a view records an open; with
         *     `download=1` a download. Same headers as the app's files (nosniff, sandbox, no-store).
         */
        get: operations["s_token_file_file"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search-new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search across everything the signed-in user may see.
         * @description Words are matched whole, by their beginning (while typing) and, from five letters on,
         *     with one typo; case and accents do not matter, and query syntax characters are plain text.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shared-links/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Links e-mailed before links were tracked: a permanent redirect to the tracked viewer
         *     (`/s/{token}`), which answers for them from then on.
         */
        get: operations["shared_link"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/training": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lists the sales training of a year, in date order. */
        get: operations["training_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/training/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A training with its tabs (`tabs` maps info, details, hotel, day, activities, key, downloads and
         *     contacts to `{title, content}`), plus `title` (the training's name), text_over_website, website
         *     and link. Activity events carry `type` and `googlemaps`.
         */
        get: operations["training_id_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every app update, newest first, with the user's read flags. */
        get: operations["list_updates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/updates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One app update, for the update wizard. Opening it records the view as an event (once), so
         *     the newest update stops being offered after sign-in (`update_id`).
         */
        get: operations["open_update"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/url-cta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Name -> url, e.g. `{"support": "mailto:support@example.com", "whats_new": "/app/new"}`. */
        get: operations["url_cta"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usadocs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The root of the US set (users whose certificate is US; 403 for others). */
        get: operations["list_us"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/useful-links-new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The useful links, in content order. */
        get: operations["links"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/accept-terms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Records that the user accepted the current version of the terms and conditions (an event);
         *     content calls work from the next request on.
         */
        get: operations["accept_terms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/check-domain-new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tells whether an e-mail signs in with a password or through single sign-on. */
        get: operations["check_domain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/get-data": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's data. */
        get: operations["get_data"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Signs in with e-mail and password.
         * @description Throttled per account and client network (`LOGIN_MAX_FAILURES`, then an exponential back-off)
         *     and per client network (`LOGIN_ADDRESS_MAX_FAILURES`): failures elsewhere never lock the owner
         *     out of their own network, and the addresses of one network count as one.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/login-azure-{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Starts single sign-on with the provider named by the check-domain `source`. */
        get: operations["start"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Signs out: ends this session on the server (its token stops working at once, its sockets
         *     close with 4401).
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The onboarding slides (from `content/onboarding/slides.json`). */
        get: operations["onboarding_slides"];
        put?: never;
        /** Records that the user went through the onboarding slides. */
        post: operations["onboarding_done"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Changes the caller's password (the policy applies). This session stays signed in; every
         *     other session of the account ends.
         * @description Wrong current passwords are throttled per account like sign-in (`LOGIN_MAX_FAILURES`).
         */
        post: operations["change_password"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends a reset link to a password account. Answers the same whether or not the account exists. */
        post: operations["request"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sets a new password with a reset link's token; every session of the account ends. */
        post: operations["confirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/register-device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Registers the device the app runs on (for push notifications). A web push subscription in
         *     `push_id` is checked first (400 when it is not one, or its endpoint is not on a known push
         *     service) and kept for this device and session until sign-out, revocation, or the push
         *     service says it is gone.
         */
        post: operations["register_device"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's open sessions, the most recently used first. */
        get: operations["own_sessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Ends one of the caller's sessions: its next request answers 401 and its sockets close with
         *     4401. Another user's session, or one already ended, is 404.
         */
        delete: operations["end_own_session"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/share-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E-mails containing `search` of the other accounts a document can be shared with (enabled
         *     users; never administrators, auditors or disabled accounts), for the share dialog. Limited
         *     per user (`RECIPIENT_LOOKUPS_PER_MINUTE`), and only once the terms are accepted.
         */
        get: operations["share_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the provider returns: checks the identity and goes back to the app with a single-use code. */
        get: operations["callback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/sso/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchanges the single-use code of a finished single sign-on for a session. Works once, within a
         *     minute, and only from the browser that started the sign-in (its `companion_sso` cookie).
         */
        post: operations["exchange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/welcome": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restores a session from a stored token and hands out a fresh one. */
        post: operations["welcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/web-push/key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public key the app subscribes to push with (`pushManager.subscribe`); the subscription
         *     then goes to `POST /users/register-device` as `push_id`.
         */
        get: operations["public_key"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The realtime channel (WebSocket).
         * @description Upgrade to a WebSocket, then send `{"type":"auth","token":"<session token>","last_seq":n,"epoch":"e"}`
         *     within 10 s (`last_seq` and `epoch` from the last `ready`/`message`; omit both on a first
         *     connection). The server answers with the entries missed since `last_seq` (or `{"type":"reload"}`
         *     when they are no longer kept), then `{"type":"ready","seq":n,"epoch":"e"}`, then live
         *     `{"type":"message","seq":n,"kind":"...","payload":{...},"at":ms}` frames and a
         *     `{"type":"ping"}` every 25 s (answer `{"type":"pong"}`; a socket silent for 60 s is closed).
         *     Send the auth message again with a new token whenever the app's token is replaced.
         *
         *     Close codes: 4401 session expired, invalid or ended (signed out, revoked or unused for
         *     `SESSION_IDLE_SECONDS`, on every node; also when the token expires while connected;
         *     the app signs out), 4403 the current terms are not accepted yet (nothing is sent before they
         *     are), 4400 first message was not `auth`, 4408 timed out, 1013 `slow` (the
         *     client fell behind; reconnect and resume), 1001 server shutting down, 1011 server error.
         *     Message kinds: `badge` `{name: notifications|updates|shared, count}`, `shared_arrival`
         *     `{item}`, `shared_change` `{folder_id, change: added|renamed|moved|removed, item_id, item}`,
         *     `notification` `{notification}`, `app_update` `{update}`, `session_revoked` `{session}` (the
         *     server itself closes that session's sockets with 4401). See `docs/realtime.md`.
         */
        get: operations["upgrade"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Acceptance: {
            /** Format: int64 */
            accepted_at: number;
            email?: string | null;
            user_id: string;
            version: string;
        };
        /** @description Who could see a document or folder at a past time (`GET /api/items/{id}/access-as-of`). */
        AccessAsOf: {
            /**
             * Format: int64
             * @description The time asked about, milliseconds since the epoch.
             */
            at: number;
            id: string;
            owner?: null | components["schemas"]["PersonThen"];
            /** @description The users it was shared with then, directly or through a folder above it, by user id. */
            shared_with: components["schemas"]["ShareThenView"][];
            /** @description The title then. */
            title: string;
            /** @description `folder` or `file`. */
            type: string;
            /** @description The item was in the US set: every user with a US certificate could see it. */
            us_set: boolean;
        };
        /** @description An account as administrators see it. */
        AccountInfo: {
            disabled: boolean;
            email: string;
            first_name: string;
            id: string;
            last_name: string;
            role: components["schemas"]["Role"];
            /** @description `password` or `sso`. */
            sign_in: string;
        };
        ActivitiesContent: {
            activities: components["schemas"]["ActivityGroup"][];
        } & {
            [key: string]: unknown;
        };
        ActivitiesTab: {
            content: components["schemas"]["ActivitiesContent"];
            title: string;
        };
        /** @description A congress activity (also served alone) or a training's activity event. */
        Activity: {
            calendar?: string | null;
            description?: string | null;
            end_date: string;
            end_date_time?: string | null;
            experts?: components["schemas"]["Expert"][] | null;
            files?: components["schemas"]["LibraryDocument"][] | null;
            googlemaps?: string | null;
            /** Format: int64 */
            id: number;
            image?: string | null;
            location?: string | null;
            /**
             * Format: int64
             * @description The congress of a congress activity.
             */
            parent_id?: number | null;
            parent_name?: string | null;
            start_date: string;
            start_date_time?: string | null;
            subtitle1?: string | null;
            subtitle2?: string | null;
            title: string;
            /** @description e.g. workshop, lunch, dinner. */
            type?: string | null;
        } & {
            [key: string]: unknown;
        };
        ActivityGroup: {
            events: components["schemas"]["Activity"][];
            label: string;
        };
        AddUserRequest: {
            email: string;
            first_name: string;
            last_name?: string;
            /** @description Omitted: the account signs in through single sign-on only. */
            password?: string | null;
            /** @description `user` (default), `admin` or `auditor`. */
            role?: string | null;
        };
        AttachmentGroup: {
            files: components["schemas"]["DocumentItem"][];
            name: string;
        };
        AudienceInput: string | string[];
        AuditActivityEntry: {
            /** @description As in an item's history: created, uploaded, renamed, moved, shared, ... */
            action: string;
            actor: components["schemas"]["AuditPerson"];
            /**
             * Format: int64
             * @description When, ms since the epoch.
             */
            at: number;
            detail: string;
            item: components["schemas"]["AuditActivityItem"];
        };
        /** @description The item an activity entry is about, as it was named after the event. */
        AuditActivityItem: {
            id: string;
            name: string;
            /** @description `folder` or `file`. */
            type: string;
        };
        /** @description One page of activity, newest first. */
        AuditActivityPage: {
            entries: components["schemas"]["AuditActivityEntry"][];
            /**
             * @description Pass as `before` for the next (older) page; null on the last page. Entries recorded
             *     while the pages are walked never make an entry repeat or go missing.
             */
            next?: string | null;
        };
        /** @description A document or folder, current or deleted. */
        AuditItem: {
            /**
             * Format: int64
             * @description When it was created, ms since the epoch.
             */
            created_at: number;
            deleted: boolean;
            /**
             * Format: int64
             * @description When it was deleted (with its folder, or on its own), ms since the epoch.
             */
            deleted_at?: number | null;
            deleted_by?: null | components["schemas"]["AuditPerson"];
            /** @description Files: `pdf` or `xls`. */
            format?: string | null;
            id: string;
            /** @description Folders: the name; files: the title. */
            name: string;
            owner?: null | components["schemas"]["AuditPerson"];
            /** @description `my` (a user's My Docs) or `us` (the company's US set). */
            space: string;
            /** @description `folder` or `file`. */
            type: string;
            /**
             * Format: int64
             * @description Its last change (creation, rename, move, share, deletion), ms since the epoch.
             */
            updated_at: number;
        };
        /** @description A person as the auditor sees them. */
        AuditPerson: {
            /** @description Empty for the company (`system`) and for removed accounts. */
            email: string;
            id: string;
            /** @description The current name; for a removed account the name the events carried, or 'Former user'. */
            name: string;
        };
        /** @description The user's unread counters. */
        BadgesView: {
            /**
             * Format: int64
             * @description The number of the last realtime broadcast that `notifications` and `updates` include: a
             *     `broadcast` notification or app update with a higher number is not counted yet.
             */
            broadcast_seq: number;
            /**
             * Format: int64
             * @description Unread notifications.
             */
            notifications: number;
            /**
             * Format: int64
             * @description New items shared with the user (from the documents feature).
             */
            shared: number;
            /**
             * Format: int64
             * @description App updates not viewed yet.
             */
            updates: number;
        };
        Banner: {
            banner: string;
            description: string;
            link: string;
            title: string;
        };
        /** @description A beacon: `{view, seq, pages: [{page, seconds}]}`. */
        Beacon: {
            /** @description Seconds each page was visible since the view's previous beacon (0-3600, at most 50). */
            pages: components["schemas"]["BeaconPage"][];
            /**
             * Format: int64
             * @description Numbers the view's beacons: a repeat of a number changes nothing.
             */
            seq: number;
            /** @description The view id the file was loaded with. */
            view: string;
        };
        BeaconPage: {
            /**
             * Format: int32
             * @description 1 and up.
             */
            page: number;
            /** Format: double */
            seconds: number;
        };
        BTreeMap: {
            [key: string]: {
                label: string;
                value: string;
            }[];
        };
        /** @description The catalogue documents under the /products tiles. */
        Catalogues: {
            documents: components["schemas"]["DocumentItem"][];
            title: string;
        };
        CategoryFilters: {
            order: components["schemas"]["FilterOption"][];
            subcategory: components["schemas"]["FilterOption"][];
        };
        CategoryPage: {
            category_name: string;
            filters: components["schemas"]["CategoryFilters"];
            /** Format: int64 */
            id: number;
            list: components["schemas"]["ListItem"][];
            /** @description The applied order and subcategory. */
            order: string;
            /** @description True when the parent is a segment. */
            parent_first_level: boolean;
            /** Format: int64 */
            parent_id: number;
            preview: string;
            /** @description Shown as a warning above the title. */
            red_label?: string | null;
            subcategory?: string | null;
        };
        ChangePasswordRequest: {
            current_password?: string | null;
            new_password?: string | null;
        };
        ChangePasswordResponse: {
            result: boolean;
        };
        CheckDomainResponse: {
            /** @description True when the e-mail's domain signs in through single sign-on. */
            azure: boolean;
            /** @description The single sign-on provider to open (`/users/login-azure-{source}`), when `azure`. */
            source?: string | null;
        };
        /** @description What a client sends. */
        ClientMessage: {
            /** @description The feed epoch of `last_seq` (from `ready`). A different epoch means `reload`. */
            epoch?: string | null;
            /**
             * Format: int64
             * @description The last broadcast number the client has seen (from `ready` or `broadcast`); absent
             *     on a first connection: broadcasts are then replayed from none.
             */
            last_broadcast_seq?: number | null;
            /**
             * Format: int64
             * @description The last feed number the client has seen; absent on a first connection.
             */
            last_seq?: number | null;
            /** @description The session token, as sent in the API's `Authorization: Bearer` header. */
            token: string;
            /** @enum {string} */
            type: "auth";
        } | {
            /** @enum {string} */
            type: "pong";
        };
        ComponentDetails: {
            gallery: components["schemas"]["GalleryImage"][];
            /** Format: int64 */
            id: number;
            material: string;
            notes: string;
            /** Format: int64 */
            parent_id: number;
            parent_name: string;
            sterile: boolean;
            title: string;
            variants: components["schemas"]["VariantGroup"][];
        };
        ComponentItem: {
            /** Format: int64 */
            id: number;
            material: string;
            preview?: string | null;
            sterile: boolean;
            title: string;
        };
        ConfirmRequest: {
            password?: string | null;
            token?: string | null;
        };
        /** @description A congress with its tabs. Every 'Save in calendar' place has a `calendar` address. */
        CongressDetail: {
            date: string;
            dates: string;
            end_date: string;
            /** Format: int64 */
            id: number;
            name: string;
            preview?: string | null;
            subtitle?: string | null;
            /** @description The tab keys in the order of the content file. */
            tab_order: string[] | null;
            tabs: components["schemas"]["ProgrammeTabs"];
            timezone?: string | null;
            /** @description `congress` or `event`. */
            type: string;
        } & {
            [key: string]: unknown;
        };
        CongressHome: {
            /** @description Congresses and events not over yet, soonest first (same rows as the list). */
            list: components["schemas"]["CongressRow"][];
        };
        /** @description A list with its filter options. */
        CongressList: {
            /** @description `{year: [{value, label}], type: [...]}`. */
            filters: components["schemas"]["BTreeMap"];
            list: components["schemas"]["CongressRow"][];
            selected: components["schemas"]["CongressSelection"];
        };
        /** @description A congress or event of the list and of the Home carousel. */
        CongressRow: {
            /** @description First day, `yyyy-mm-dd`. */
            date: string;
            /** @description The dates as written (`12-14 May 2026`). */
            dates: string;
            /** @description Last day, `yyyy-mm-dd`. */
            end_date: string;
            /** Format: int64 */
            id: number;
            name: string;
            /** @description Always present; `null` when the content has none. */
            preview: string | null;
            subtitle: string;
            /** @description `congress` or `event`. */
            type: string;
        };
        /** @description The selected filter values. */
        CongressSelection: {
            type?: string | null;
            year: string;
        };
        ContactCard: {
            address?: string | null;
            email?: string | null;
            name?: string | null;
            phone?: string | null;
            website?: string | null;
        } & {
            [key: string]: unknown;
        };
        ContactsContent: {
            congress_venue?: null | components["schemas"]["ContactCard"];
            email?: string | null;
            hotel?: null | components["schemas"]["ContactCard"];
            name?: string | null;
            phone?: string | null;
            staff?: components["schemas"]["StaffContact"][] | null;
            website?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description A tab of the directory and its entries. */
        ContactSection: {
            tab: string;
            voices: components["schemas"]["Voice"][];
        };
        ContactsTab: {
            content: components["schemas"]["ContactsContent"];
            title: string;
        };
        /** @description A card of the course list. */
        CourseCard: {
            category: components["schemas"]["CourseCategory"];
            end_date: string;
            /** @description True once the course's last day has ended where it takes place (set when served). */
            ended?: boolean;
            /** Format: int64 */
            id: number;
            language: string;
            /** @description Always present; `null` when the content has none. */
            preview: string | null;
            /** @description Always present; `null` when the content has none. */
            print_date: string | null;
            /** @description The product segments, with their icons. */
            segment: components["schemas"]["SegmentIcon"][] | null;
            speakers: components["schemas"]["SpeakerCard"][];
            start_date: string;
            subtitle: string;
            title: string;
            typology: string;
        };
        /** @description The class of a course and its label. */
        CourseCategory: {
            /** @description `course`, `online`, `third` or `other`. */
            class: string;
            label: string;
        };
        CourseDay: {
            date_text: string;
            /** @description `yyyy-mm-dd`, what a registration sends. */
            date_value: string;
            description?: string | null;
            /**
             * @description True once the day has ended where the course takes place (set when served): a
             *     registration to it is refused.
             */
            ended?: boolean;
            files: components["schemas"]["LibraryDocument"][];
            speakers?: string[] | null;
            time?: string | null;
            title?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description A course with its agenda. */
        CourseDetail: {
            category: components["schemas"]["CourseCategory"];
            course_level?: string | null;
            days: components["schemas"]["CourseDay"][];
            description?: string | null;
            end_date: string;
            /**
             * @description True once the course's last day has ended where it takes place (set when served): the
             *     app offers no registration then.
             */
            ended?: boolean;
            /** @description External registration link. */
            evenium?: string | null;
            files: components["schemas"]["LibraryDocument"][];
            /** Format: int64 */
            id: number;
            images?: string[] | null;
            language: string;
            learn_contact?: null | components["schemas"]["LearnContact"];
            /** @description Absent or null for online courses. */
            location?: string | null;
            preview?: string | null;
            print_date?: string | null;
            save_outlook?: null | components["schemas"]["SaveOutlook"];
            segment?: components["schemas"]["SegmentIcon"][] | null;
            show_learn_contact?: boolean | null;
            show_register?: boolean | null;
            show_tabs?: boolean | null;
            speakers?: components["schemas"]["CourseSpeaker"][] | null;
            start_date: string;
            subtitle?: string | null;
            timezone?: string | null;
            title: string;
            typology: string;
            videos?: components["schemas"]["CourseVideo"][] | null;
        } & {
            [key: string]: unknown;
        };
        CourseList: {
            /** @description `{year, month, category, segment, language, typology, speaker: [{value, label}]}`. */
            filters: components["schemas"]["BTreeMap"];
            list: components["schemas"]["CourseCard"][];
            selected: components["schemas"]["CourseSelection"];
        };
        CourseRegistrations: {
            /** Format: int64 */
            course_id: number;
            /** @description One row per user and day, by day then time of registration. */
            registrations: components["schemas"]["RegistrationRow"][];
            title: string;
        };
        /** @description The filter values the list was made with. */
        CourseSelection: {
            category?: string | null;
            language?: string | null;
            month?: string | null;
            segment?: string | null;
            speaker?: string | null;
            typology?: string | null;
            year: string;
        };
        CourseSpeaker: {
            country?: string | null;
            name: string;
            preview?: string | null;
        } & {
            [key: string]: unknown;
        };
        CourseVideo: {
            label?: string | null;
            preview?: string | null;
            url?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description The answer to a creation or a new version. */
        Created: {
            /** Format: int64 */
            id: number;
            status?: string | null;
            /** Format: int64 */
            version: number;
        };
        CreateFolderBody: {
            name?: string | null;
            /** @description The folder to create it in; null for the root. */
            parent?: string | null;
            /** @description Always `my`: folders are added only in My Docs. */
            type?: string | null;
        };
        /** @description The multipart form of a new document. */
        CreateForm: {
            /** @description `all` or `us`. */
            audience: string;
            category?: string | null;
            /** @description RFC 3339 or ms; after `release_at` and now. */
            expires_at?: string | null;
            /**
             * Format: binary
             * @description A PDF or XLS file.
             */
            file: string;
            /** @description Repeated: `for_internal_use`, `controlled_release`, `upon_request`. */
            labels?: string[] | null;
            note?: string | null;
            /** @description Repeated catalogue product ids. */
            products?: number[] | null;
            /** @description Repeated programme ids. */
            programmes?: number[] | null;
            /** @description RFC 3339 or ms. */
            release_at?: string | null;
            title: string;
        };
        DateAndTime: {
            date: string;
            time: string;
        } & {
            [key: string]: unknown;
        };
        DayContent: {
            events?: components["schemas"]["DaySchedule"][] | null;
        } & {
            [key: string]: unknown;
        };
        DayEvent: {
            calendar?: string | null;
            description?: string | null;
            subtitle?: string | null;
            time: string;
            title: string;
        } & {
            [key: string]: unknown;
        };
        /** @description The events of one day. */
        DaySchedule: {
            date: string;
            events?: components["schemas"]["DayEvent"][] | null;
        } & {
            [key: string]: unknown;
        };
        DayTab: {
            content: components["schemas"]["DayContent"];
            title: string;
        };
        /** @description An approver's decision. */
        Decision: {
            comment?: string | null;
        };
        DecisionRequest: {
            comment?: string | null;
        };
        /** @description What a deletion removed. */
        Deleted: {
            id: string;
            /** @description The items that went with a folder, at every level. */
            removed: string[];
        };
        /** @description A block of rich text. */
        Described: {
            description?: string | null;
        } & {
            [key: string]: unknown;
        };
        DetailsContent: {
            congress_venue?: null | components["schemas"]["Venue"];
            main_topics?: null | components["schemas"]["Described"];
            timing_dates?: null | components["schemas"]["TimingDates"];
            useful_information?: null | components["schemas"]["Described"];
        } & {
            [key: string]: unknown;
        };
        DetailsTab: {
            content: components["schemas"]["DetailsContent"];
            title: string;
        };
        /** @description Documents (library ids) and company items a device reports on. */
        DeviceReport: {
            /** @description The device's id (as registered, or the app's own installation id). */
            device: string;
            /** @description Item ids of the company's copies (their library document is found by the server). */
            items?: string[];
            library?: number[];
        };
        DeviceRequest: {
            app_version?: string | null;
            browser?: string | null;
            device?: string | null;
            os?: string | null;
            /**
             * @description The web app's push subscription as JSON (`{"endpoint": "https://...", "keys": {"p256dh":
             *     "...", "auth": "..."}}`, endpoint on one of `PUSH_SERVICES`, else 400): stored for this
             *     device (`uuid`) and session, replacing the previous one; absent or empty: this device's
             *     subscription is removed (push turned off).
             */
            push_id?: string | null;
            uuid?: string | null;
        };
        /** @description A library document as lists show it (catalogues, #ThinkClinical, attachments, downloads). */
        DocumentItem: {
            /** @description Extra actions offered on the item; open and download are always available. */
            actions: string[];
            code_points: string;
            controlled_release: boolean;
            for_internal_use: boolean;
            /** Format: int64 */
            id: number;
            languages_in_file: string;
            /** @description The file name. */
            name: string;
            size: string;
            subtitle: string;
            title: string;
            /** @description Always `file`. */
            type: string;
            upon_request: boolean;
            /** @description Where the signed-in app opens the file (`/api/library/{id}/file`). */
            url: string;
        };
        DownloadsContent: {
            files: components["schemas"]["LibraryDocument"][];
        } & {
            [key: string]: unknown;
        };
        DownloadsTab: {
            content: components["schemas"]["DownloadsContent"];
            title: string;
        };
        /** @description A document that ended, as a device must purge it. */
        EndedDocument: {
            /** Format: int64 */
            at: number;
            /** Format: int64 */
            id: number;
            /** @description The company's items of it (the US item and every copy). */
            items: string[];
            reason: string;
            replacement?: null | components["schemas"]["Replacement"];
            /** @description `withdrawn` or `expired`. */
            state: string;
        };
        EndedSince: {
            documents: components["schemas"]["EndedDocument"][];
            /**
             * Format: int64
             * @description The server's time: the next call's `since`.
             */
            now: number;
        };
        EndSessionResponse: {
            result: boolean;
        };
        /** @description How a document ended. */
        EndView: {
            /** Format: int64 */
            at: number;
            by?: null | components["schemas"]["LibraryPerson"];
            reason: string;
            replacement?: null | components["schemas"]["Replacement"];
            /** @description `withdrawn` or `expired`. */
            state: string;
        };
        /** @description The JSON body of every error response. */
        ErrorBody: {
            /** @description A machine-readable reason, when the app acts on it (`terms_not_accepted`). */
            code?: string | null;
            message: string;
        };
        ExchangeRequest: {
            /** @description The `token` query parameter single sign-on returned to `/login` with. */
            code?: string | null;
        };
        Expert: {
            description?: string | null;
            image?: string | null;
            name: string;
            preview?: string | null;
            subtitle?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description What an external share answers. */
        ExternalShare: {
            /**
             * Format: int64
             * @description When the link stops working (ms since the epoch).
             */
            expires_at: number;
            /** @description The share's id (`GET /api/documents/{id}/shares`, `.../shares/{share_id}/revoke`). */
            id: string;
            recipient: string;
        };
        /** @description The body of an external share. */
        ExternalShareBody: {
            /** @description Default true; false: view only. */
            allow_download?: boolean | null;
            email?: string | null;
            /**
             * Format: int64
             * @description 1 to `EXTERNAL_LINK_MAX_DAYS` (30); default 7.
             */
            expires_in_days?: number | null;
            file?: string | null;
            /**
             * Format: int64
             * @description 1 to 1000 opens, then the link answers 410; default no limit.
             */
            max_opens?: number | null;
        };
        FavoriteBody: {
            file?: string | null;
            /** @description A folder of the user's My Docs; null for the root. */
            folder?: string | null;
        };
        Feature: {
            anchor: string;
            description: string;
            image: string;
            title: string;
        };
        /** @description An entry of a filter list (spec 3: value/id and label/name). */
        FilterOption: {
            label: string;
            value: string | number;
        };
        /** @description A folder's contents at a past time. */
        FolderAsOf: {
            list: components["schemas"]["ItemView"][];
            name: string;
        };
        /** @description A folder's contents as one user sees them. */
        FolderContents: {
            back?: null | components["schemas"]["FolderRef"];
            list: components["schemas"]["ItemView"][];
            name: string;
            /** @description `my`, `shared` or `us`. */
            type: string;
        };
        /** @description A node of the move dialog's tree. */
        FolderNode: {
            folders: components["schemas"]["FolderNode"][];
            id: string;
            name: string;
        };
        /** @description `{id, name}` of a folder (`back` of a folder's contents). */
        FolderRef: {
            id: string;
            name: string;
        };
        GalleryImage: {
            big: string;
        };
        GalleryInput: string | {
            big: string;
            title?: string | null;
        };
        GalleryView: {
            /** @description The big image. */
            big: string;
            title?: string | null;
        };
        GuideResponse: {
            steps: components["schemas"]["GuideStep"][];
        };
        /** @description One step of the tour: the screen it explains and what to know about it. */
        GuideStep: {
            /** @description Optional picture (`/media/...`). */
            image?: string | null;
            /** @description In-app path of the screen, offered as "Go to" (`/documents`). */
            path: string;
            /** @description The screen's key (`home`, `products`, `documents`...): an info button opens the tour here. */
            screen: string;
            /** @description Plain text. */
            text: string;
            title: string;
        };
        Health: {
            /** @description Always `ok`. */
            status: string;
        };
        /** @description One page of an item's history, newest first, as its reader is told it. */
        History: {
            entries: components["schemas"]["HistoryEntry"][];
            item: components["schemas"]["HistoryItem"];
            /**
             * @description Pass as `before` for the next (older) page; null on the last page. Events recorded
             *     while the pages are walked never make an entry repeat or go missing.
             */
            next?: string | null;
        };
        HistoryEntry: {
            /**
             * @description created, uploaded, renamed, moved, shared, shared_externally, saved_to_mydocs,
             *     moved_to_mydocs, opened, downloaded, removed or deleted.
             */
            action: string;
            /** @description Who, by name. */
            actor: string;
            actor_email: string;
            /**
             * Format: int64
             * @description When, in ms since the epoch.
             */
            at: number;
            detail: string;
            from?: string | null;
            to?: string | null;
        };
        HistoryItem: {
            /**
             * @description The caller may look at this folder as of a past time (`GET /folders/{id}/as-of`):
             *     auditors, and owners in their own tree; always false for files.
             */
            as_of: boolean;
            id: string;
            /** @description The latest name. */
            name: string;
            /**
             * @description How often it was opened and downloaded: by everyone for auditors and the owner, by the
             *     reader themselves for anyone else (from the reads read model).
             */
            reads: components["schemas"]["ReadCounts"];
            /** @description `folder` or `file`. */
            type: string;
        };
        Holder: {
            devices: components["schemas"]["HolderDevice"][];
            /** @description `opened`, `downloaded`, `saved`, `pinned_offline`, `shared`, `sent_externally`. */
            how: string[];
            user: components["schemas"]["HolderUser"];
        };
        HolderDevice: {
            device: string;
            /** @description What the device calls itself, when registered. */
            name?: string | null;
            /** Format: int64 */
            purged_at?: number | null;
        };
        HolderUser: {
            email: string;
            id: string;
            name: string;
        };
        HomeData: {
            /** @description Upcoming congresses and events. Placeholder: the congresses feature fills it. */
            congresses: unknown[];
            /** @description My Docs, Shared with me and US (3 each). Placeholder: the documents feature fills it. */
            documents: components["schemas"]["HomeDocuments"];
            /** @description The latest news. */
            news: components["schemas"]["NewsItem"][];
            /** @description One entry per product segment. */
            products: components["schemas"]["SegmentTile"][];
        };
        /** @description The three document groups of the home carousel, the first items of each. */
        HomeDocuments: {
            my: unknown[];
            shared: unknown[];
            us: unknown[];
        };
        Hotel: {
            address?: string | null;
            calendar?: string | null;
            checkin_date: string;
            checkout_date: string;
            googlemaps?: string | null;
            image?: string | null;
            info?: string | null;
            name: string;
        } & {
            [key: string]: unknown;
        };
        HotelContent: {
            additional_hotels?: components["schemas"]["Hotel"][] | null;
            additional_transfers?: components["schemas"]["Transfer"][] | null;
            hotel?: null | components["schemas"]["Hotel"];
            transfer?: null | components["schemas"]["Transfer"];
        } & {
            [key: string]: unknown;
        };
        HotelTab: {
            content: components["schemas"]["HotelContent"];
            title: string;
        };
        ImageList: {
            filters: components["schemas"]["MultimediaFilters"];
            list: components["schemas"]["MultimediaImage"][];
        };
        InDepthCarousel: {
            items: components["schemas"]["InDepthCarouselItem"][];
            title: string;
        };
        InDepthCarouselItem: {
            image: string;
            link: components["schemas"]["InDepthLink"];
            title: string;
        };
        InDepthLink: {
            anchor?: string | null;
            /** @description The section path (tab) of the in-depth page. */
            path: string;
        };
        InDepthPage: {
            /**
             * Format: int64
             * @description The product.
             */
            id: number;
            name: string;
            /**
             * @description As in the content; the app orders the tabs (info, details, hotel, day, activities,
             *     download, contacts, then the others).
             */
            sections: components["schemas"]["InDepthSection"][];
            title: string;
        };
        InDepthSection: {
            content: components["schemas"]["SectionContent"];
            features: components["schemas"]["Feature"][];
            label: string;
            path: string;
        };
        /** @description Present (an object) when the product has an in-depth page. */
        InDepthSummary: {
            carousel?: null | components["schemas"]["InDepthCarousel"];
        };
        InfoContent: {
            calendar?: string | null;
            description?: string | null;
            description_short?: string | null;
            first_date: string;
            first_date_time?: string | null;
            image?: string | null;
            intro_video?: null | components["schemas"]["IntroVideo"];
            last_date: string;
            last_date_time?: string | null;
            link?: string | null;
            name?: string | null;
            registration?: null | components["schemas"]["RegistrationLink"];
            subtitle?: string | null;
        } & {
            [key: string]: unknown;
        };
        InfoTab: {
            content: components["schemas"]["InfoContent"];
            title: string;
        };
        IntroVideo: {
            preview_image: string;
            url?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description A list of items (`GET /documents/my`, `/documents/shared`, `/usadocs`). */
        ItemList: {
            list: components["schemas"]["ItemView"][];
            /** @description `my`, `shared` or `us`. */
            type: string;
        };
        /** @description The library document that replaces a withdrawn one. */
        ItemReplacement: {
            /**
             * Format: int64
             * @description Its library id.
             */
            id: number;
            title: string;
            /** @description Where the signed-in app opens it. */
            url: string;
        };
        /** @description A document or folder as the API shows it to one user (spec 3 "Document or folder item"). */
        ItemView: {
            /**
             * @description Exactly what this user may do: a subset of rename, delete, move, internal_share,
             *     storage_internal_share, external_share, save_to_mydocs, move_to_mydocs.
             */
            actions: string[];
            /**
             * Format: int64
             * @description Folders: how many items they hold.
             */
            children?: number | null;
            code_points?: string | null;
            controlled_release: boolean;
            for_internal_use: boolean;
            /** @description UUID. */
            id: string;
            /** @description 'For internal use', 'Controlled release' or 'Upon request' (the first that applies). */
            label?: string | null;
            languages_in_file?: string | null;
            /** @description Folders: the name; files: the file name. */
            name: string;
            /** @description The owner's name (none for the company's US set). */
            owner?: string | null;
            /**
             * @description The folder holding the item, for its owner only (none at the root, and never shown to
             *     others): the move dialog of a search result disables it and offers the root.
             */
            parent?: string | null;
            /**
             * Format: int64
             * @description Files: bytes.
             */
            size?: number | null;
            subtitle?: string | null;
            title: string;
            /** @description `folder` or `file`. */
            type: string;
            /** @description The item reached this user (a share, the US set) and they have not opened it yet. */
            unread: boolean;
            /**
             * Format: int64
             * @description Milliseconds since the epoch.
             */
            updated_at: number;
            upon_request: boolean;
            /** @description Files: where the content is (`/api/documents/{id}/file`, signed in). */
            url?: string | null;
            withdrawn?: null | components["schemas"]["ItemWithdrawal"];
        };
        /** @description Why an item is no longer available: the company withdrew the document, or it expired. */
        ItemWithdrawal: {
            /**
             * Format: int64
             * @description Milliseconds since the epoch.
             */
            at: number;
            /** @description The reason the withdrawal gave (empty for an expiry). */
            reason: string;
            replacement?: null | components["schemas"]["ItemReplacement"];
            state: components["schemas"]["ItemWithdrawalState"];
        };
        /**
         * @description Whether the company withdrew the document or it expired.
         * @enum {string}
         */
        ItemWithdrawalState: "withdrawn" | "expired";
        KeyMessage: {
            description?: string | null;
            images?: string[] | null;
            title: string;
        } & {
            [key: string]: unknown;
        };
        /** @description The learn team's mailbox for 'Ask for more information'. */
        LearnContact: {
            email: string;
            subject: string;
        };
        /** @description A document with every version. */
        LibraryAdminDetail: components["schemas"]["LibraryAdminItem"] & {
            versions: components["schemas"]["VersionView"][];
        };
        /** @description A document as the console lists it. */
        LibraryAdminItem: {
            /** @description `all` or `us`. */
            audience: string;
            author: components["schemas"]["LibraryPerson"];
            category?: string | null;
            /** Format: int64 */
            expires_at?: number | null;
            /** Format: int64 */
            id: number;
            /** @description `for_internal_use`, `controlled_release`, `upon_request`. */
            labels: string[];
            products: number[];
            programmes: number[];
            /** Format: int64 */
            release_at?: number | null;
            /** Format: int64 */
            released_version?: number | null;
            /** @description `draft`, `in_review`, `approved`, `released`, `expired` or `withdrawn`. */
            status: string;
            title: string;
            /** Format: int64 */
            updated_at: number;
            /**
             * Format: int64
             * @description The latest version.
             */
            version: number;
            withdrawn?: null | components["schemas"]["EndView"];
        };
        LibraryAdminList: {
            items: components["schemas"]["LibraryAdminItem"][];
        };
        /** @description A library document as programmes list it; `url` is where the signed-in app fetches the file. */
        LibraryDocument: {
            code_points?: string | null;
            controlled_release?: boolean | null;
            for_internal_use?: boolean | null;
            /** Format: int64 */
            id: number;
            languages_in_file?: string | null;
            name?: string | null;
            size?: string | null;
            subtitle?: string | null;
            title: string;
            /** @description Always `file`. */
            type: string;
            upon_request?: boolean | null;
            url: string;
        } & {
            [key: string]: unknown;
        };
        /** @description One step of a document's history. */
        LibraryHistoryEntry: {
            action: string;
            actor: components["schemas"]["LibraryPerson"];
            /** Format: int64 */
            at: number;
            detail: string;
        };
        /** @description Someone as the console shows them. */
        LibraryPerson: {
            id: string;
            name: string;
        };
        /** @description Why a document is withdrawn, and what replaces it. */
        LibraryWithdrawRequest: {
            reason?: string;
            /**
             * Format: int64
             * @description A released library document other than this one.
             */
            replacement?: number | null;
        };
        /** @description The 410 of a link no longer available. */
        LinkGoneBody: {
            /** @description "This link is no longer available." */
            error: string;
            /** @description The item that replaces a superseded document. */
            replacement?: string | null;
            /** @description `revoked`, `expired`, `used_up`, `ended` or `withdrawn` (the company withdrew the document). */
            state: string;
        };
        /** @description What the viewer page shows. */
        LinkInfo: {
            allow_download: boolean;
            company: string;
            /** Format: int64 */
            expires_at: number;
            /** @description `pdf` or `xls` (XLS: download only). */
            kind: string;
            sender: components["schemas"]["LinkSender"];
            /**
             * Format: int64
             * @description ms since the epoch.
             */
            sent_at: number;
            /**
             * Format: int64
             * @description Bytes.
             */
            size: number;
            title: string;
        };
        /**
         * @description Where a notification leads (spec 2.9): `products`, `training`, `learn`, `congress`, `news` with
         *     an optional id, or a section of the app without id (`useful`, `documents`, `contacts`, ...).
         */
        LinkRequest: {
            /** Format: int64 */
            id?: number | null;
            type?: string;
        };
        LinkSender: {
            name: string;
        };
        LinkView: {
            /** Format: int64 */
            id?: number | null;
            type: string;
        };
        /**
         * @description An entry of a segment or category list: a category (goes to /products/category/{id}) or a
         *     product (goes to /products/detail/{id}).
         */
        ListItem: {
            /** @description For products: the subcategory label, else the category name. */
            category?: string | null;
            /** Format: int64 */
            id: number;
            name: string;
            preview: string;
            red_label?: string | null;
            /** @description `category` or `product`. */
            type: string;
        };
        LoginRequest: {
            password?: string | null;
            username?: string | null;
        };
        MediaAccordion: {
            images?: string[] | null;
            title: string;
            videos?: components["schemas"]["MediaVideo"][] | null;
        } & {
            [key: string]: unknown;
        };
        MediaContent: {
            accordions?: components["schemas"]["MediaAccordion"][] | null;
            general_images?: string[] | null;
            general_videos?: components["schemas"]["MediaVideo"][] | null;
        } & {
            [key: string]: unknown;
        };
        MediaTab: {
            content: components["schemas"]["MediaContent"];
            title: string;
        };
        MediaVideo: {
            code?: string | null;
            label?: string | null;
            preview?: string | null;
            title?: string | null;
            url?: string | null;
        } & {
            [key: string]: unknown;
        };
        MessageResponse: {
            message: string;
        };
        MessagesContent: {
            messages?: components["schemas"]["KeyMessage"][] | null;
        } & {
            [key: string]: unknown;
        };
        MessagesResponse: {
            data: components["schemas"]["MessageView"][];
        };
        MessagesTab: {
            content: components["schemas"]["MessagesContent"];
            title: string;
        };
        /** @description A message as the user sees it. */
        MessageView: {
            /** @description When it was sent, RFC 3339. */
            date: string;
            /** @description Sanitised HTML. */
            message: string;
            /** Format: int64 */
            messageId: number;
            /** @description The question the reply answers; none for plain messages. */
            question?: string | null;
            reply?: string | null;
            /** Format: int64 */
            roundId?: number | null;
            /**
             * Format: int64
             * @description 0 new, 1 seen, 2 answered.
             */
            status: number;
            title: string;
        };
        /** @description A change of metadata; absent fields stay as they are. */
        MetadataChange: {
            /** @description `all` or `us`. */
            audience?: string | null;
            category?: string | null;
            /** @description RFC 3339 or ms. */
            expires_at?: string | null;
            labels?: string[] | null;
            products?: number[] | null;
            programmes?: number[] | null;
            /** @description RFC 3339 or ms. */
            release_at?: string | null;
            title?: string | null;
        };
        MoveFileBody: {
            file?: string | null;
            /** @description The folder to move it into; null for the root 'My docs'. */
            folder?: string | null;
        };
        MoveFolderBody: {
            /** @description The folder to move it into; null for the root 'My docs'. */
            destination?: string | null;
            folder?: string | null;
        };
        /** @description The filter lists of one section. */
        MultimediaFilters: {
            category: components["schemas"]["FilterOption"][];
            segment: components["schemas"]["FilterOption"][];
            year: components["schemas"]["FilterOption"][];
        };
        MultimediaImage: {
            hd: string;
            /** Format: int64 */
            id: number;
            image: string;
            img: string;
            label: string;
            preview: string;
            text: string;
        };
        MultimediaVideo: {
            code?: string | null;
            hero: boolean;
            /** Format: int64 */
            id: number;
            label: string;
            preview: string;
            preview_image: string;
            title: string;
            /** @description The player is chosen from `code`, else from `url` (or its last path part). */
            url?: string | null;
        };
        MyDocsBody: {
            source?: string | null;
            /** @description The item's type (`folder`/`file`) or its list (`shared`); informative only. */
            type?: string | null;
        };
        NewsAdminDetail: components["schemas"]["NewsAdminItem"] & {
            /** @description The latest version's body. */
            body_html: string;
            /** Format: int32 */
            released_version?: number | null;
            versions: components["schemas"]["NewsVersionView"][];
            /** @description `{at, by, reason}` once withdrawn. */
            withdrawn?: Record<string, never> | null;
        };
        NewsAdminItem: {
            author: components["schemas"]["NewsPerson"];
            category: string;
            /** Format: int64 */
            expires_at?: number | null;
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            release_at?: number | null;
            status: string;
            title: string;
            /** Format: int64 */
            updated_at: number;
            /** Format: int64 */
            version: number;
        };
        NewsAdminList: {
            items: components["schemas"]["NewsAdminItem"][];
        };
        NewsDetail: {
            category: string;
            date: string;
            /** @description Sanitised HTML. */
            description: string;
            /** Format: int64 */
            id: number;
            preview: string;
            title: string;
        };
        NewsFilters: {
            category: components["schemas"]["FilterOption"][];
            year: components["schemas"]["FilterOption"][];
        };
        NewsHistoryEntry: {
            action: string;
            actor: components["schemas"]["NewsPerson"];
            /** Format: int64 */
            at: number;
            detail: string;
        };
        NewsHome: {
            /** @description The latest news, newest first. */
            list: components["schemas"]["NewsItem"][];
        };
        NewsItem: {
            category: string;
            /** @description `YYYY-MM-DD`. */
            date: string;
            /** Format: int64 */
            id: number;
            preview: string;
            title: string;
        };
        NewsList: {
            category?: string | null;
            filters: components["schemas"]["NewsFilters"];
            list: components["schemas"]["NewsItem"][];
            /**
             * Format: int32
             * @description The applied filters.
             */
            year: number;
        };
        NewsPerson: {
            id: string;
            name: string;
        };
        /** @description A news item as written in the console. */
        NewsRequest: {
            /** @description Sanitised before it is stored. */
            body_html: string;
            category: string;
            /** @description `YYYY-MM-DD`; default today. */
            date?: string | null;
            expires_at?: string | null;
            image?: string | null;
            /** @description The list's picture (a path or an address). */
            preview?: string | null;
            /** @description RFC 3339 or milliseconds since the epoch. */
            release_at?: string | null;
            title: string;
        };
        NewsState: {
            /** Format: int64 */
            id: number;
            status: string;
            /** Format: int32 */
            version: number;
        };
        NewsVersionView: {
            author: components["schemas"]["NewsPerson"];
            comment?: string | null;
            /** Format: int64 */
            created_at: number;
            /** Format: int64 */
            decided_at?: number | null;
            decided_by?: null | components["schemas"]["NewsPerson"];
            /** Format: int64 */
            released_at?: number | null;
            status: string;
            /** Format: int64 */
            submitted_at?: number | null;
            title: string;
            /** Format: int32 */
            version: number;
        };
        NewsWithdrawRequest: {
            reason: string;
        };
        /** @description A notification to publish. */
        NotificationRequest: {
            audience?: null | components["schemas"]["AudienceInput"];
            link?: null | components["schemas"]["LinkRequest"];
            /** @description HTML; sanitised on the server (scripts, styles, event handlers and unknown tags go). */
            message?: string;
            /** @description Preview image: a path of this app (`/media/...`) or an http(s) address. */
            preview?: string | null;
            /** @description Required, at most 200 characters. */
            title?: string;
        };
        /** @description A notification as the user sees it. */
        NotificationView: {
            /** @description Publication time, RFC 3339. */
            date: string;
            /** Format: int64 */
            id: number;
            link?: null | components["schemas"]["LinkView"];
            /** @description Sanitised HTML. */
            message: string;
            preview?: string | null;
            read: boolean;
            title: string;
        };
        OnboardingResponse: {
            slides: components["schemas"]["Slide"][];
        };
        /** @description A tab of a key the app does not know. */
        OtherTab: {
            content: {
                [key: string]: unknown;
            };
            title: string;
        };
        /** @description One of the caller's open sessions. */
        OwnSession: {
            /** @description True for the session of this request. */
            current: boolean;
            /** @description The browser's user agent when it signed in, if it sent one. */
            device?: string | null;
            /**
             * Format: int64
             * @description Its absolute end, ms since the epoch.
             */
            expires_at: number;
            id: string;
            /**
             * Format: int64
             * @description Its last recorded use, ms since the epoch (written at most about once a minute).
             */
            last_used_at: number;
            /**
             * Format: int64
             * @description When it signed in, ms since the epoch.
             */
            signed_in_at: number;
        };
        /** @description Seconds a page was viewed. */
        PageSeconds: {
            /** Format: int64 */
            page: number;
            /**
             * Format: int64
             * @description Whole seconds.
             */
            seconds: number;
        };
        /** @description Someone who could see an item at a past time. */
        PersonThen: {
            email?: string | null;
            /** @description User id. */
            id: string;
            /** @description Their name (now; the owner's as recorded on the item); none for an account since removed. */
            name?: string | null;
        };
        /** @description Offline pins of a device. */
        PinReport: components["schemas"]["DeviceReport"] & {
            /** @description True when pinned; an unpin records nothing (the report shows who ever held a copy). */
            pinned?: boolean;
        };
        ProductAttachments: {
            attachments: components["schemas"]["AttachmentGroup"][];
            /** Format: int64 */
            id: number;
            name: string;
            parent_first_level: boolean;
            /** Format: int64 */
            parent_id: number;
        };
        ProductComponents: {
            /** Format: int64 */
            id: number;
            list: components["schemas"]["ComponentItem"][];
            name: string;
        };
        ProductDetails: {
            banner?: null | components["schemas"]["Banner"];
            benefits: string[];
            /** @description Sanitised HTML, empty paragraphs removed. */
            description: string;
            /** @description Sanitised HTML. */
            disclaimers: string;
            has_attachments: boolean;
            has_components: boolean;
            /** Format: int64 */
            id: number;
            images: string[];
            inDepth?: null | components["schemas"]["InDepthSummary"];
            name: string;
            parent_first_level: boolean;
            /** Format: int64 */
            parent_id: number;
            parent_name: string;
            preview: string;
            relatedProducts: components["schemas"]["RelatedProducts"];
            videos: components["schemas"]["Video"][];
        };
        ProductsOverview: {
            catalogues: components["schemas"]["Catalogues"];
            categories: components["schemas"]["SegmentTile"][];
        };
        /** @description The tabs of a congress or a training, by key; each is `{title, content}`. */
        ProgrammeTabs: {
            activities?: null | components["schemas"]["ActivitiesTab"];
            contacts?: null | components["schemas"]["ContactsTab"];
            day?: null | components["schemas"]["DayTab"];
            details?: null | components["schemas"]["DetailsTab"];
            download?: null | components["schemas"]["DownloadsTab"];
            downloads?: null | components["schemas"]["DownloadsTab"];
            hotel?: null | components["schemas"]["HotelTab"];
            info: components["schemas"]["InfoTab"];
            key?: null | components["schemas"]["MessagesTab"];
            media?: null | components["schemas"]["MediaTab"];
            messages?: null | components["schemas"]["MessagesTab"];
        } & {
            [key: string]: components["schemas"]["OtherTab"];
        };
        /** @description The answer to a publication. */
        Published: {
            /** Format: int64 */
            id: number;
        };
        /** @description The key browsers subscribe with. */
        PushKey: {
            /** @description False when the server pushes nothing (`PUSH_ENABLED=false`): the app offers no push. */
            enabled: boolean;
            /** @description The VAPID public key (`applicationServerKey`), base64url of the uncompressed P-256 point. */
            public_key: string;
        };
        /** @description How often an item was read. */
        ReadCounts: {
            /** Format: int64 */
            downloads: number;
            /**
             * Format: int64
             * @description The last read, ms since the epoch; none when never read.
             */
            last_at?: number | null;
            /** Format: int64 */
            opens: number;
            /**
             * Format: int64
             * @description How many people these reads came from.
             */
            readers: number;
        };
        Readiness: {
            /** @description `ok`, or why the database could not be reached. */
            database: string;
            /**
             * @description PostgreSQL: the id of the node holding the projector lease (its `DATA_DIR/node-id`), or
             *     null while none holds a valid one (a take-over in progress).
             */
            lease_holder?: string | null;
            /**
             * Format: int64
             * @description The lag above which this node reports not ready (`READY_MAX_PROJECTION_LAG`).
             */
            max_projection_lag: number;
            /**
             * Format: int64
             * @description Events in the store the read models have not applied yet (null when unknown).
             */
            projection_lag?: number | null;
            /**
             * @description `single` (SQLite: this node runs everything), `projector` (PostgreSQL: this node holds the
             *     projector lock) or `follower` (another node runs the projector).
             */
            role: string;
            /** @description `ready` or `not_ready`. */
            status: string;
        };
        Recorded: {
            recorded: number;
        };
        /**
         * @description The registration form (spec section 3): chosen days, name, e-mail, hospital, category,
         *     newsletter, the course id and the two consents.
         */
        RegisterRequest: {
            /** @description `surgeon` or `staff`. */
            category?: string | null;
            /** @description Consent to the use of the data for the course (data protection). */
            data_consent?: boolean;
            /** @description Chosen days (`date_value` of the course's days). */
            days?: string[];
            email?: string | null;
            hospital?: string | null;
            /**
             * Format: int64
             * @description The course id; when given it must be the one of the address.
             */
            id?: number | null;
            name?: string | null;
            newsletter?: boolean;
            /** @description Consent to the privacy policy. */
            privacy_consent?: boolean;
        };
        RegistrationLink: {
            link?: string | null;
            text?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description One registered day of one user. */
        RegistrationRow: {
            category?: string | null;
            day: string;
            email: string;
            hospital?: string | null;
            name: string;
            newsletter: boolean;
            /**
             * Format: int64
             * @description Milliseconds since the epoch.
             */
            registered_at: number;
            user_id: string;
        };
        RelatedProduct: {
            /** Format: int64 */
            id: number;
            image: string;
            name: string;
        };
        RelatedProducts: {
            products: components["schemas"]["RelatedProduct"][];
        };
        RemoveBody: {
            id?: string | null;
        };
        RenameBody: {
            name?: string | null;
        };
        /** @description The document that replaces a withdrawn one. */
        Replacement: {
            /**
             * Format: int64
             * @description Its library id.
             */
            id: number;
            title: string;
            /** @description Where the signed-in app opens it (`/api/library/{id}/file`). */
            url: string;
        };
        ReplyRequest: {
            /** Format: int64 */
            messageId?: number | null;
            /** @description Plain text, at most 2000 characters. */
            reply?: string | null;
        };
        ResetRequest: {
            email?: string | null;
        };
        ResetResponse: {
            result: boolean;
        };
        ResultResponse: {
            result: boolean;
        };
        RevokeResponse: {
            result: boolean;
        };
        /** @enum {string} */
        Role: "user" | "admin" | "auditor" | "publisher" | "approver";
        RoleRequest: {
            role: string;
        };
        SaveOutlook: {
            end_date: components["schemas"]["DateAndTime"];
            /** @description The iCalendar file, or null when the course does not offer it. */
            link: string | null;
            start_date: components["schemas"]["DateAndTime"];
        } & {
            [key: string]: unknown;
        };
        /** @description One result (spec 3 "Search results"). */
        SearchItem: {
            /** @description yyyy-mm-dd */
            date?: string | null;
            document?: null | components["schemas"]["ItemView"];
            id: string;
            /** @description Documents: the list it is in (`my`, `shared` or `us`). */
            list?: string | null;
            name: string;
            /** @description An image of the item, when it has one. */
            preview?: string | null;
            subtitle?: string | null;
        };
        /** @description Results grouped by type, best first; a type without results is left out. */
        SearchResults: {
            activities?: components["schemas"]["SearchItem"][];
            components?: components["schemas"]["SearchItem"][];
            congresses?: components["schemas"]["SearchItem"][];
            contacts?: components["schemas"]["SearchItem"][];
            /** @description Documents and folders of My Docs, Shared with me and (when the account shows it) US. */
            documents?: components["schemas"]["SearchItem"][];
            /** @description Medical-education courses. */
            learn?: components["schemas"]["SearchItem"][];
            /**
             * @description Library documents every rep may open (`id` is the library id; the file is
             *     `/api/library/{id}/file`).
             */
            library?: components["schemas"]["SearchItem"][];
            /** @description Useful links. */
            links?: components["schemas"]["SearchItem"][];
            news?: components["schemas"]["SearchItem"][];
            products?: components["schemas"]["SearchItem"][];
            training?: components["schemas"]["SearchItem"][];
        };
        SectionContent: {
            image: string;
            mainText: string;
            subText: string;
            title: string;
        };
        /** @description One group of a segment page. The 'Shoulder' segment has two (categories 37 and 42 first). */
        SegmentGroup: {
            list: components["schemas"]["ListItem"][];
        };
        /** @description A product segment of a course, with its icon. */
        SegmentIcon: {
            /** Format: int64 */
            id: number;
            image?: string | null;
        } & {
            [key: string]: unknown;
        };
        SegmentList: {
            /** @description The product segments, in catalogue order. */
            categories: components["schemas"]["SegmentTile"][];
        };
        SegmentPage: {
            /** @description True for the 'Shoulder' segment: `groups` holds its two groups. */
            grouped: boolean;
            groups: components["schemas"]["SegmentGroup"][];
            /** Format: int64 */
            id: number;
            /** @description Every entry, first group first. */
            list: components["schemas"]["ListItem"][];
            name: string;
            preview: string;
            red_label?: string | null;
            /** @description The '#ThinkClinical' documents. */
            thinkclinical: components["schemas"]["DocumentItem"][];
            type: string;
        };
        /** @description A segment tile (home carousel, /products). */
        SegmentTile: {
            /** Format: int64 */
            id: number;
            name: string;
            preview: string;
            red_label?: string | null;
            /** @description Always `segment`. */
            type: string;
        };
        /** @description A page of the caller's own external shares. */
        SentShares: {
            /** @description Pass as `before` for the next (older) page; null on the last. */
            next?: string | null;
            shares: components["schemas"]["ShareView"][];
        };
        /** @description What the server sends. */
        ServerMessage: {
            /** Format: int64 */
            at: number;
            kind: string;
            payload: Record<string, never>;
            /** Format: int64 */
            seq: number;
            /** @enum {string} */
            type: "message";
        } | {
            /** Format: int64 */
            at: number;
            kind: string;
            payload: Record<string, never>;
            /** Format: int64 */
            seq: number;
            /** @enum {string} */
            type: "broadcast";
        } | {
            /** Format: int64 */
            broadcast_seq: number;
            epoch: string;
            /** Format: int64 */
            seq: number;
            /** @enum {string} */
            type: "ready";
        } | {
            /** @enum {string} */
            type: "reload";
        } | {
            /** @enum {string} */
            type: "ping";
        };
        /** @description A session as administrators see it. */
        SessionInfo: {
            client_address?: string | null;
            /** Format: int64 */
            created_at: number;
            device?: string | null;
            /** Format: int64 */
            expires_at: number;
            id: string;
            /** Format: int64 */
            last_seen_at: number;
            /** Format: int64 */
            revoked_at?: number | null;
        };
        /** @description What sign-in and session restore answer. */
        SessionResponse: {
            /** @description The session token; replaces the one the app holds. */
            jwt: string;
            /** @description True when the terms must be accepted before anything else. */
            need_accept_terms: boolean;
            /** @description True when the onboarding slides must be shown. */
            onboarding: boolean;
            /** @description True when a device with a push id is registered for this user. */
            push: boolean;
            /**
             * Format: int64
             * @description An app update the user has not seen yet.
             */
            update_id?: number | null;
            user: components["schemas"]["UserData"];
        };
        /** @description A successful internal share. */
        Shared: {
            item: components["schemas"]["ItemView"];
            recipient: string;
        };
        ShareFileBody: {
            email?: string | null;
            file?: string | null;
        };
        ShareFolderBody: {
            email?: string | null;
            folder?: string | null;
        };
        ShareItem: {
            id: string;
            title: string;
        };
        ShareSender: {
            id: string;
            name: string;
        };
        /** @description A share valid at the time asked about. */
        ShareThenView: {
            /** @description True when the share was on the item itself. */
            direct: boolean;
            /**
             * Format: int64
             * @description When that share began, milliseconds since the epoch.
             */
            since: number;
            /** @description The item the share was on: the item itself, or a folder above it then. */
            through: string;
            user: components["schemas"]["PersonThen"];
            /** @description `internal` or `storage`. */
            via: string;
        };
        /** @description One external share and its engagement. */
        ShareView: {
            allow_download: boolean;
            /** Format: int64 */
            downloads: number;
            /** Format: int64 */
            expires_at: number;
            id: string;
            item?: null | components["schemas"]["ShareItem"];
            /** Format: int64 */
            last_opened_at?: number | null;
            /** Format: int64 */
            max_opens?: number | null;
            /** Format: int64 */
            opens: number;
            pages: components["schemas"]["PageSeconds"][];
            /** @description Opened from more than one device (network and device class). */
            possibly_forwarded: boolean;
            /** @description The recipient's e-mail (only the sender, the item's owner and auditors see it). */
            recipient: string;
            /** Format: int64 */
            revoked_at?: number | null;
            sender: components["schemas"]["ShareSender"];
            /**
             * Format: int64
             * @description ms since the epoch.
             */
            sent_at: number;
            /** @description `active`, `expired`, `revoked`, `used_up` or `ended`. */
            state: string;
        };
        Slide: {
            image: string;
        };
        /** @description A speaker on a course card. */
        SpeakerCard: {
            /** @description Always present; `null` when the content has none. */
            image: string | null;
            name: string;
        };
        StaffContact: {
            email?: string | null;
            name?: string | null;
            phone?: string | null;
            role?: string | null;
        } & {
            [key: string]: unknown;
        };
        StatusRequest: {
            /** Format: int64 */
            messageId?: number | null;
            /**
             * Format: int64
             * @description 0 new, 1 seen, 2 answered; 1 when absent.
             */
            status?: number | null;
        };
        /** @description What the user's documents take of their quota. */
        StorageUsage: {
            /**
             * Format: int64
             * @description What they may keep (`USER_STORAGE_QUOTA_MB`).
             */
            quota_bytes: number;
            /**
             * Format: int64
             * @description Bytes of the files the user keeps in My Docs (uploads, saved copies); removed files no
             *     longer count.
             */
            used_bytes: number;
        };
        /** @description A directory entry's detail; absent fields are left out. */
        Subsidiary: {
            /** @description Sanitised HTML. */
            address?: string | null;
            email?: string | null;
            fax?: string | null;
            /** Format: int64 */
            id: number;
            phone?: string | null;
            title: string;
        };
        TimingDates: {
            calendar?: string | null;
            description?: string | null;
            description_short?: string | null;
            from_date: string;
            from_time?: string | null;
            to_date: string;
            to_time?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description A sales training with its tabs, and `title` (its name). */
        TrainingDetail: {
            dates: string;
            end_date: string;
            /** Format: int64 */
            id: number;
            link?: string | null;
            name: string;
            preview?: string | null;
            start_date: string;
            subtitle?: string | null;
            /** @description Always present; `null` when the content has none. */
            tab_order: string[] | null;
            tabs: components["schemas"]["ProgrammeTabs"];
            text_over_website?: string | null;
            timezone?: string | null;
            /** @description The training's name again (the detail screen's heading). */
            title?: string;
            website?: string | null;
        } & {
            [key: string]: unknown;
        };
        TrainingList: {
            /** @description `{year: [{value, label}]}`. */
            filters: components["schemas"]["BTreeMap"];
            list: components["schemas"]["TrainingRow"][];
            selected: components["schemas"]["TrainingSelection"];
        };
        /** @description A sales training of the list. */
        TrainingRow: {
            dates: string;
            end_date: string;
            /** Format: int64 */
            id: number;
            name: string;
            /** @description Always present; `null` when the content has none. */
            preview: string | null;
            start_date: string;
            subtitle: string;
        };
        TrainingSelection: {
            year: string;
        };
        Transfer: {
            calendar?: string | null;
            info?: string | null;
            transfer_date: string;
            transfer_return_date: string;
            transfer_return_time: string;
            transfer_time: string;
        } & {
            [key: string]: unknown;
        };
        /** @description An app update to publish. */
        UpdateRequest: {
            /** @description The big images of the wizard, in order: at least one. */
            gallery?: components["schemas"]["GalleryInput"][];
            /** @description Required, at most 200 characters. */
            name?: string;
            preview?: string | null;
            /** @description e.g. `2.7.0`; required. */
            release?: string;
            /**
             * @description Where 'Discover more' leads (`/app/...` paths lose the `/app` prefix in the app); none
             *     shows 'Close'.
             */
            url?: string | null;
        };
        /** @description An app update as the user sees it. */
        UpdateView: {
            date: string;
            gallery: components["schemas"]["GalleryView"][];
            /** Format: int64 */
            id: number;
            name: string;
            preview?: string | null;
            /** @description True once the user has viewed it. */
            read: boolean;
            release: string;
            url?: string | null;
        };
        /** @description The multipart form of `POST /api/documents/upload`. */
        UploadForm: {
            /**
             * Format: binary
             * @description A PDF or XLS file.
             */
            file: string;
            /** @description The name the file gets in the lists. */
            name: string;
            /** @description The folder to put it in; empty for the root of My Docs. */
            parent?: string | null;
        };
        UsefulLink: {
            /** Format: int64 */
            id: number;
            image: string;
            link: string;
            title: string;
        };
        /** @description The user as the app sees it (`user` in the login response, `GET /users/get-data`). */
        UserData: {
            /** @description e.g. `US`: such users see the US documents. */
            certificate?: string | null;
            email: string;
            first_name: string;
            id: string;
            last_name: string;
            /** @description `user`, `admin` (may publish notifications and app updates) or `auditor` (reads all history). */
            role: components["schemas"]["Role"];
            /** @description Whether the US tab and home section are shown. */
            show_us: boolean;
            teams?: string | null;
        };
        Variant: {
            code: string;
            size: string;
            /** @description Shown with the red 'upon request' marker. */
            upon_request: boolean;
        };
        VariantGroup: {
            title: string;
            variants: components["schemas"]["Variant"][];
        };
        Venue: {
            description?: string | null;
            gallery?: string[] | null;
            link_download?: string | null;
            link_download_label?: string | null;
            link_googlemaps?: string | null;
            link_googlemaps_label?: string | null;
            name?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description The multipart form of a new version. */
        VersionForm: {
            /** Format: binary */
            file: string;
            note?: string | null;
        };
        /** @description One version with its review. */
        VersionView: {
            author: components["schemas"]["LibraryPerson"];
            comment?: string | null;
            /** Format: int64 */
            decided_at?: number | null;
            decided_by?: null | components["schemas"]["LibraryPerson"];
            file_name: string;
            note?: string | null;
            /** Format: int64 */
            released_at?: number | null;
            /** Format: int64 */
            size: number;
            status: string;
            /** Format: int64 */
            submitted_at?: number | null;
            /** Format: int64 */
            uploaded_at: number;
            /** Format: int64 */
            version: number;
        };
        Video: {
            code?: string | null;
            label: string;
            preview: string;
            url?: string | null;
        };
        VideoList: {
            filters: components["schemas"]["MultimediaFilters"];
            hero?: null | components["schemas"]["MultimediaVideo"];
            list: components["schemas"]["MultimediaVideo"][];
        };
        Voice: {
            /** Format: int64 */
            id: number;
            subtitle: string;
            title: string;
        };
        WithdrawalReport: {
            /** Format: int64 */
            at?: number | null;
            holders: components["schemas"]["Holder"][];
            /** Format: int64 */
            id: number;
            reason: string;
            replacement?: null | components["schemas"]["Replacement"];
            /** @description `withdrawn` or `expired`; none while the document is live. */
            state?: string | null;
            title: string;
        };
        /**
         * @description The JSON body of a 410 for a withdrawn or expired document: why and since when, and what
         *     replaces it when something does.
         */
        WithdrawnBody: {
            /**
             * Format: int64
             * @description When, in milliseconds since the epoch.
             */
            at: number;
            /** @description 'This document was withdrawn.' or 'This document has expired.' */
            message: string;
            /** @description The reason the withdrawal gave (empty for an expiry). */
            reason: string;
            replacement?: null | components["schemas"]["Replacement"];
            /** @description `withdrawn` or `expired`. */
            state: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    admin_library_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Words of the title. */
                q: string | null;
                /**
                 * @description `draft`, `in_review`, `approved`, `released`, `expiring` (released, expiring within 30
                 *     days), `expired` or `withdrawn`.
                 */
                status: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["CreateForm"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description 'Only PDF and XLS files can be uploaded' */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_id_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminDetail"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    change: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MetadataChange"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminItem"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_id_approve_approve: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Decision"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminItem"];
                };
            };
            /** @description not an approver, or 'You cannot approve a version you wrote: another approver must.' */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_id_history_history: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryHistoryEntry"][];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_id_reject_reject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Decision"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminItem"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_id_submit_submit: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminItem"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    add_version: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["VersionForm"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    version_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": unknown;
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_library_id_withdraw_withdraw: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LibraryWithdrawRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LibraryAdminItem"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    withdrawal_report: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `csv` for CSV; JSON otherwise. */
                format: string | null;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalReport"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description draft | in_review | approved | released | expired | withdrawn */
                status: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsAdminList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewsRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsState"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_id_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsAdminDetail"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revise: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewsRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsState"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_id_approve_approve: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsState"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_id_history_history: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsHistoryEntry"][];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_id_reject_reject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsState"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_id_submit_submit: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsState"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_news_id_withdraw_withdraw: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewsWithdrawRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsState"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    publish_notification: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Published"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revoke_session: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokeResponse"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    admin_terms_acceptances_history: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description One user's acceptances (their id); everyone's when omitted. */
                user: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acceptance"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    publish_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Published"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_users: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountInfo"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    add_user: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddUserRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountInfo"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    disable: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountInfo"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    enable: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountInfo"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    set_role: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoleRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountInfo"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    user_sessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionInfo"][];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    audit_activity_activity: {
        parameters: {
            query?: {
                /**
                 * @description Only this action: created, uploaded, renamed, moved, shared, shared_externally,
                 *     saved_to_mydocs, moved_to_mydocs, opened, downloaded, removed or deleted.
                 */
                action?: string;
                /** @description The `next` of the previous page. Not used by the CSV export. */
                before?: string;
                /** @description RFC 3339: from this time (inclusive). */
                from?: string;
                /** @description Entries per page, 1 to 200 (default 200). Not used by the CSV export. */
                limit?: number;
                /** @description RFC 3339: until this time (exclusive). */
                to?: string;
                /** @description Only what the user with this e-mail did. */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditActivityPage"];
                };
            };
            /** @description A bad date, limit, cursor, action or an unknown user */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description 'Only auditors can read the company's activity' */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    activity_csv: {
        parameters: {
            query?: {
                /**
                 * @description Only this action: created, uploaded, renamed, moved, shared, shared_externally,
                 *     saved_to_mydocs, moved_to_mydocs, opened, downloaded, removed or deleted.
                 */
                action?: string;
                /** @description The `next` of the previous page. Not used by the CSV export. */
                before?: string;
                /** @description RFC 3339: from this time (inclusive). */
                from?: string;
                /** @description Entries per page, 1 to 200 (default 200). Not used by the CSV export. */
                limit?: number;
                /** @description RFC 3339: until this time (exclusive). */
                to?: string;
                /** @description Only what the user with this e-mail did. */
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/csv: at,actor,actor_email,action,item_id,item_type,item,detail */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    items: {
        parameters: {
            query?: {
                /** @description Which time `from` and `to` bound: `created` (default), `changed` or `deleted`. */
                date?: string;
                /** @description `true`: deleted items only; `false`: current items only; absent: both. */
                deleted?: boolean;
                /** @description RFC 3339: from this time (inclusive). */
                from?: string;
                /** @description Items per answer, 1 to 200 (default 100). */
                limit?: number;
                /** @description Items to skip (the next page starts at `offset + limit`), at most 10,000. */
                offset?: number;
                /** @description The owner's e-mail. */
                owner?: string;
                /** @description Part of the name, in any case (empty: every name). */
                q?: string;
                /** @description `my` (users' My Docs) or `us` (the company's US set). */
                space?: string;
                /** @description RFC 3339: until this time (exclusive). */
                to?: string;
                /** @description `folder`, `file`, `pdf` or `xls`. */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditItem"][];
                };
            };
            /** @description A bad filter, date, limit or an unknown owner */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description 'Only auditors can search every document' */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    badges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadgesView"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    calendar_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `{id}.ics`; see the module documentation for the id of each kind */
                file: string;
                /** @description congress, activity, training, course, timing, hotel, transfer or day-event */
                kind: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An iCalendar file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/calendar": unknown;
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    component: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Component id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComponentDetails"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    congresses_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `congress` or `event`; all when absent. */
                type: string | null;
                /** @description Year of the first day; the current year when absent. */
                year: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CongressList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    congresses_id_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Congress id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The congress */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CongressDetail"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    congresses_activities_id_activity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Activity id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activity */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Activity"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    congresses_home_home: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CongressHome"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    sections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactSection"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    subsidiary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Entry (voice) id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subsidiary"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    courses_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Category class: course, online, third or other. */
                category: string | null;
                language: string | null;
                /** @description Month of the first day, `01`..`12`. */
                month: string | null;
                /** @description Product segment id. */
                segment: string | null;
                /** @description A speaker's name. */
                speaker: string | null;
                typology: string | null;
                /** @description Year of the first day; the current year of the calendar when absent. */
                year: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CourseList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    courses_id_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Course id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The course */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CourseDetail"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Course id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterRequest"];
            };
        };
        responses: {
            /** @description 'You have been registered to the course' */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            /** @description A rule of the form is broken, or the course or a chosen day has already taken place */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Already registered to a chosen day, or a concurrent change won */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    courses_id_registrations_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Course id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CourseRegistrations"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    export_csv: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Course id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV with a header row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_by_type: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `my`, `shared` or `us`. */
                type: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    documents_id_file_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `1` to download (attachment) rather than open (inline). */
                download: string | null;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file (application/pdf or application/vnd.ms-excel) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description the company withdrew the document or it expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawnBody"];
                };
            };
        };
    };
    documents_id_history_history: {
        parameters: {
            query?: {
                /** @description The `next` of the previous page (absent: the newest entries). */
                before?: string;
                /** @description Entries per page, 1 to 200 (default 200). */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["History"];
                };
            };
            /** @description A bad limit or cursor */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    history_csv: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/csv: at,actor,actor_email,action,detail,from,to */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    item_shares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareView"][];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    external_share: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExternalShareBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalShare"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description not allowed, 'For internal use', or internal-only labels */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    save_to_mydocs: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FavoriteBody"];
            };
        };
        responses: {
            /** @description the copy */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    move_file: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MoveFileBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_my: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    remove_file: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RemoveBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    share_file: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShareFileBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shared"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_shared: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    sent_shares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `next` of the previous page. */
                before: string | null;
                /** @description 1 to 200, default 50. */
                limit: number | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentShares"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revoke_share: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                share_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareView"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    storage_share: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShareFileBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shared"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    upload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["UploadForm"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description the file is larger than allowed, or would pass the user's storage quota */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description 'Only PDF and XLS files can be uploaded' */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description the file store's volume is short of room */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    usage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageUsage"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_folders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `my`, `shared` or `us`. */
                type: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    create_folder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFolderBody"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            /** @description no name, too long, or past the max depth */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    folder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                /** @description `my`, `shared` or `us`. */
                type: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FolderContents"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rename: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenameBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    folder_as_of: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description RFC 3339, e.g. `2026-11-20T10:00:00Z`. */
                at: string | null;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FolderAsOf"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description 'You could not see this folder at that time' */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    delete_folder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tree: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FolderNode"][];
                };
            };
        };
    };
    move_folder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MoveFolderBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            /** @description into itself or below itself, or past the max depth */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    move_to_mydocs: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MyDocsBody"];
            };
        };
        responses: {
            /** @description the copy */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    share_folder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShareFolderBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shared"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description no such item, or 'The user associated with that e-mail was not found. Check again the e-mail or try an external share.' */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tour: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GuideResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    home_home: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HomeData"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    access_as_of: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description RFC 3339, e.g. `2026-11-20T10:00:00Z`. */
                at: string | null;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessAsOf"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description 'Only auditors and the item's owner can see who could see it' */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown item, or 'The item did not exist at that time' */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    library_id_file_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `1` to download (attachment, recorded as a download) rather than open (inline). */
                download: string | null;
                /** @description Library document id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": unknown;
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description withdrawn or expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawnBody"];
                };
            };
        };
    };
    pins: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PinReport"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Recorded"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    purges: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceReport"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Recorded"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    withdrawn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Milliseconds since the epoch; none: from the beginning. */
                since: number | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndedSince"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_messages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Only the messages of this round. */
                roundId: number | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    set_status: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatusRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    reply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplyRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageView"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    images: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A value of `filters.category`. */
                category: string | null;
                /** @description A segment id of `filters.segment`. */
                segment: string | null;
                /** @description A value of `filters.year`. */
                year: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    videos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A value of `filters.category`. */
                category: string | null;
                /** @description A segment id of `filters.segment`. */
                segment: string | null;
                /** @description A value of `filters.year`. */
                year: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    news_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description One of `filters.category`; empty means all. */
                category: string | null;
                /** @description Four-digit year; default the current year. */
                year: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    news_id_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description News id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsDetail"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    news_home_home: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewsHome"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_notifications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationView"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openapi_json: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of the API */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    attachments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Product id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductAttachments"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    components: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Product id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductComponents"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    details: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Product id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductDetails"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    indepth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Product id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InDepthPage"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    overview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductsOverview"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    categories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    category: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Category id */
                id: number;
                /** @description One of the `filters.order` values (default `featured`). */
                order: string | null;
                /** @description One of the `filters.subcategory` values; empty means all. */
                subcategory: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryPage"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    segment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Segment id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentPage"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    open_notification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Notification id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationView"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    info: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkInfo"];
                };
            };
            /** @description unknown link: {error: "This link does not exist."} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description revoked, expired, used up or ended */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkGoneBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    beacon: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Beacon"];
            };
        };
        responses: {
            /** @description recorded (or already recorded) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkGoneBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    s_token_file_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `1`: as an attachment, recorded as a download (403 when the sender allowed viewing only). */
                download: string | null;
                token: string;
                /** @description The page load's view id (16-64 URL-safe characters); its first request is the open. */
                view: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The sender allowed viewing only. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkGoneBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    search: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description What to look for: at least 2 characters; words may be incomplete or have one typo. */
                term: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResults"];
                };
            };
            /** @description Search at least 2 characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    shared_link: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to /s/{token} */
            308: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    training_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Year of the first day; the current year when absent. */
                year: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrainingList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    training_id_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Training id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The training */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrainingDetail"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_updates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateView"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    open_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description App update id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateView"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    url_cta: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: string;
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_us: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ItemList"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    links: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsefulLink"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    accept_terms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    check_domain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckDomainResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_data: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserData"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    start: {
        parameters: {
            query?: {
                /** @description Passed to the provider as a login hint. */
                email?: string | null;
            };
            header?: never;
            path: {
                /** @description the `source` of the domain check */
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to the provider's sign-in page (setting the `companion_sso` cookie), or to `/login?error=...` when single sign-on is unavailable */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    onboarding_slides: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardingResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    onboarding_done: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    change_password: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangePasswordResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    request: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResetRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    confirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfirmRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    register_device: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    own_sessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnSession"][];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    end_own_session: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the call safe to retry: a repeat with the same key (per user, for 24 hours) answers the first result without executing again (header `Idempotency-Replayed`). 400 for a malformed key, 422 when the key was used for a different request, 409 while the first request is still being processed. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndSessionResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    share_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Part of an e-mail (at least 1 character). */
                search: string | null;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    callback: {
        parameters: {
            query?: {
                code?: string | null;
                error?: string | null;
                error_description?: string | null;
                state?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description to `/login?token=<single-use code>`, or `/login?error=...` */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    exchange: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExchangeRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    welcome: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionResponse"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    public_key: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PushKey"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    upgrade: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching to the WebSocket protocol; frames are `ClientMessage` and `ServerMessage` */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not a WebSocket upgrade request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
