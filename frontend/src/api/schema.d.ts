/**
 * Generated from openapi.json by `npm run contract` (openapi-typescript): do not edit. The back end's
 * schema changed? Run `scripts/contract` at the repository's root, which refreshes both files.
 */

export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health */
        get: operations["health_api_health_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Login
         * @description Check a name and password and start a session (an HttpOnly cookie). Throttled: five failures
         *     for a name or twenty from an address within 15 minutes answer 429 until the window passes.
         */
        post: operations["post_login_api_auth_login_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Logout
         * @description End this session (its cookie stops working everywhere, not only in this browser).
         */
        post: operations["post_logout_api_auth_logout_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Me */
        get: operations["get_me_api_auth_me_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change Password
         * @description Change one's own password (the current one is asked again); every other session ends.
         */
        post: operations["change_password_api_auth_password_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Api Tokens */
        get: operations["list_api_tokens_api_auth_tokens_get"];
        put?: never;
        /**
         * Create Api Token
         * @description A personal token with your role, for `STALLSCOPE_TOKEN`; its secret is in this answer only.
         */
        post: operations["create_api_token_api_auth_tokens_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke Api Token */
        delete: operations["revoke_api_token_api_auth_tokens__token_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Users */
        get: operations["list_users_api_users_get"];
        put?: never;
        /** Create User */
        post: operations["create_user_api_users_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change User
         * @description Change a role, disable or enable, or set a new password (which ends the account's sessions).
         */
        patch: operations["change_user_api_users__user_id__patch"];
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Audit
         * @description The audit log, newest first.
         */
        get: operations["read_audit_api_audit_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/guest-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Guest Links */
        get: operations["list_guest_links_api_incidents__incident_id__guest_links_get"];
        put?: never;
        /**
         * Create Guest Link
         * @description A read-only link to this incident for someone without an account (a vendor); its secret is in
         *     this answer only. Expires in 14 days unless told otherwise.
         */
        post: operations["create_guest_link_api_incidents__incident_id__guest_links_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/guest-links/{link_id}": {
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
         * Revoke Guest Link
         * @description Revoke at once: the link stops opening and the sessions it opened end.
         */
        delete: operations["revoke_guest_link_api_guest_links__link_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/guest/{secret}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open Guest Link
         * @description Open a guest link: a read-only session on its incident (the use is in the audit log).
         */
        post: operations["open_guest_link_api_guest__secret__post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Oidc Status
         * @description Whether the sign-in page offers single sign-on, and what its button says.
         */
        get: operations["oidc_status_api_auth_oidc_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Oidc Login
         * @description Send the browser to the identity provider's sign-in.
         */
        get: operations["oidc_login_api_auth_oidc_login_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Oidc Callback
         * @description Where the provider sends the browser back: sign in, then go where the person was going.
         */
        get: operations["oidc_callback_api_auth_oidc_callback_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Incidents
         * @description The incidents this principal may see (restricted ones: their members and admins).
         */
        get: operations["list_incidents_api_incidents_get"];
        put?: never;
        /** Create Incident */
        post: operations["create_incident_api_incidents_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Incident */
        get: operations["get_incident_api_incidents__incident_id__get"];
        put?: never;
        post?: never;
        /**
         * Trash Incident
         * @description To the trash: hidden everywhere until restored, purged for good after the trash days.
         */
        delete: operations["trash_incident_api_incidents__incident_id__delete"];
        options?: never;
        head?: never;
        /**
         * Patch Incident
         * @description Title, summary, severity, status (stamping its time the first time), root cause,
         *     remediation, visibility and members; only the fields sent change.
         */
        patch: operations["patch_incident_api_incidents__incident_id__patch"];
        trace?: never;
    };
    "/api/incidents/{incident_id}/captures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Captures
         * @description The incident's captures (a guest link limited to some captures: those).
         */
        get: operations["list_captures_api_incidents__incident_id__captures_get"];
        put?: never;
        /**
         * Upload Capture
         * @description Store the raw body (plain, gzip or zstd) and queue it for parsing; returns at once.
         */
        post: operations["upload_capture_api_incidents__incident_id__captures_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/collector/captures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Collector Upload
         * @description The collectors' upload: the UI's, with the incident as a parameter (a collector token may be
         *     limited to one incident and one host), or to the host's watch stream (`stallscope-collect
         *     watch`); credentials are checked before the body is read.
         */
        post: operations["collector_upload_api_collector_captures_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}/shift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Shift Capture
         * @description Move the capture on the wall-clock axis; every record is re-timed from the stored upload.
         */
        post: operations["shift_capture_api_captures__capture_id__shift_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set Capture Start
         * @description Place an unaligned capture on the wall clock: its first record at the start given.
         */
        post: operations["set_capture_start_api_captures__capture_id__start_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Capture */
        get: operations["get_capture_api_captures__capture_id__get"];
        put?: never;
        post?: never;
        /**
         * Trash Capture
         * @description To the trash: gone from its incident and every view until restored.
         */
        delete: operations["trash_capture_api_captures__capture_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}/reparse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reparse Capture
         * @description Parse the stored upload again; the new samples replace the old ones atomically.
         */
        post: operations["reparse_capture_api_captures__capture_id__reparse_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capture Documents
         * @description Documents kept whole, such as the collector's system snapshot.
         */
        get: operations["capture_documents_api_captures__capture_id__documents_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download Raw
         * @description The upload as it was sent (an export: in the audit log).
         */
        get: operations["download_raw_api_captures__capture_id__raw_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flame": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Flame Graph
         * @description d3-flame-graph's JSON tree, pruned to `max_nodes` with the rest folded into "(other)", and
         *     to `max_depth` levels with the rest folded into "(deeper)".
         *
         *     The tree is written as text from arrays (`analysis/tree_text.py`), without recursion: stacks
         *     nest deeper than pydantic's serialiser and the standard library's C encoder can follow.
         */
        get: operations["flame_graph_api_flame_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flame/folded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Folded
         * @description The same view as folded stacks, for flamegraph.pl, inferno, speedscope and friends.
         */
        get: operations["folded_api_flame_folded_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stacks/{stack_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stack Frames
         * @description A stored stack's frames, root first (events carry stack ids).
         */
        get: operations["stack_frames_api_stacks__stack_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/facets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Facets */
        get: operations["facets_api_facets_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Tokens */
        get: operations["list_tokens_api_tokens_get"];
        put?: never;
        /**
         * Create Token
         * @description Create an upload-only token, optionally limited to one incident or host and expiring; its
         *     secret is in this answer and nowhere else.
         */
        post: operations["create_token_api_tokens_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke Token */
        delete: operations["revoke_token_api_tokens__token_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Events
         * @description Events of the chosen captures, slowest first by default (what an on-call engineer looks for).
         */
        get: operations["list_events_api_events_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Series
         * @description Each series with its host, capture and span; the captures named, else the incident's.
         */
        get: operations["list_series_api_metrics_series_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/series/{series_id}/points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Series Points
         * @description Points in about `buckets` buckets: average, min and max (so spikes survive), p50/p90/p99 for
         *     latencies, and a counter's rate per second (resets read as restarts from zero) by default.
         */
        get: operations["series_points_api_metrics_series__series_id__points_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/timeline/tracks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Tracks
         * @description Every track the selected captures offer, grouped by host, with ids for `/api/timeline?tracks=`.
         */
        get: operations["list_tracks_api_timeline_tracks_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Timeline
         * @description Each chosen track bucketed at about one bucket per pixel (a 1/2/5 x 10^n µs width).
         */
        get: operations["timeline_api_timeline_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/annotations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Annotations
         * @description The incident's annotations in time order, optionally only those in [start, end).
         */
        get: operations["list_annotations_api_incidents__incident_id__annotations_get"];
        put?: never;
        /** Create Annotation */
        post: operations["create_annotation_api_incidents__incident_id__annotations_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/annotations/{annotation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete Annotation */
        delete: operations["delete_annotation_api_annotations__annotation_id__delete"];
        options?: never;
        head?: never;
        /** Update Annotation */
        patch: operations["update_annotation_api_annotations__annotation_id__patch"];
        trace?: never;
    };
    "/api/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Diff
         * @description B's flame tree with A's weights beside it (`a`, `b`, `delta`, `share_delta` on every node).
         *
         *     `focus` (a JSON array of frame names) answers the subtree at that frame with a fresh node
         *     budget, as the flame graph does when a zoom reaches pruned detail; `max_depth` folds what lies
         *     deeper into "(deeper)" frames, as in the flame graph.
         *
         *     Serialised without recursion, as the flame graph is: stacks nest deeper than pydantic's
         *     serialiser and the standard library's C encoder can follow.
         */
        get: operations["diff_api_diff_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Thread States
         * @description Per thread: time and share Running, Runnable, Sleeping, Uninterruptible, other and unknown,
         *     with inferred time, top blocking stacks per state, and futex waits grouped by lock.
         */
        get: operations["thread_states_api_threads_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/threads/strip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Thread Strip
         * @description One thread's state over time, a few segments per bucket at most; its times are its breakdown's.
         */
        get: operations["thread_strip_api_threads_strip_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heatmap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Heatmap
         * @description Seconds across, offsets within each second down; cells aggregated in the database.
         */
        get: operations["heatmap_api_heatmap_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/heatmap/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Streams
         * @description Which streams (and events, names or states) the captures have, busiest first.
         */
        get: operations["streams_api_heatmap_streams_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create Share
         * @description A short link to a view of what the caller may see; it opens only for people who may see it.
         */
        post: operations["create_share_api_shares_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/shares/{link_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Share
         * @description The view a short link keeps; 404 for someone who may not see its incident, as for no link.
         */
        get: operations["read_share_api_shares__link_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Snapshots
         * @description Every snapshot of the incident's captures, one per take, by capture then take.
         */
        get: operations["list_snapshots_api_incidents__incident_id__snapshots_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/snapshots/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Config Diff
         * @description B's configuration against A's: two hosts, or the start and end takes of one snapshot.
         */
        get: operations["config_diff_api_snapshots_diff_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/findings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Findings
         * @description The incident's findings as last computed (after the latest parse or baseline change).
         *
         *     Captures parsed before the console computed findings have no digest yet: the first read queues
         *     their digests and a recomputation (state `computing` until it is done).
         */
        get: operations["get_findings_api_incidents__incident_id__findings_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/findings/window": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Window Findings
         * @description Findings of a time window against the rest of the captures' time range, computed now from
         *     the same captures' stored records (a window is a question: nothing is stored).
         */
        get: operations["get_window_findings_api_incidents__incident_id__findings_window_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/findings/baseline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Put Baseline
         * @description Choose the healthy hosts; the findings are recomputed by a worker (state `computing` until then).
         */
        put: operations["put_baseline_api_incidents__incident_id__findings_baseline_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/findings/{finding_id}/verdict": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Verdict
         * @description Confirm or dismiss a finding (null clears it); kept by finding id across recomputations.
         */
        post: operations["post_verdict_api_incidents__incident_id__findings__finding_id__verdict_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore Incident */
        post: operations["restore_incident_api_incidents__incident_id__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/captures/{capture_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore Capture */
        post: operations["restore_capture_api_captures__capture_id__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Trash
         * @description Incidents and captures in the trash, and when each goes for good.
         */
        get: operations["list_trash_api_trash_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/trash/incidents/{incident_id}": {
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
         * Purge Incident
         * @description For good, now: the incident, its captures, every row they hold and their unshared blobs.
         */
        delete: operations["purge_incident_api_trash_incidents__incident_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/trash/captures/{capture_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Purge Capture */
        delete: operations["purge_capture_api_trash_captures__capture_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Retention */
        get: operations["get_retention_api_retention_get"];
        /**
         * Put Retention
         * @description The periodic retention task applies it within the hour.
         */
        put: operations["put_retention_api_retention_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Incident Storage
         * @description Raw upload bytes (shared blobs once) and stored rows per table of its captures.
         */
        get: operations["incident_storage_api_incidents__incident_id__storage_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/bundle/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview Redaction
         * @description Each redaction rule, its matches in what the bundle would hold, with examples in context.
         */
        post: operations["preview_redaction_api_incidents__incident_id__bundle_preview_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/bundle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export Bundle
         * @description The incident (or the part asked for) as one zip: offline views, data, findings, redacted.
         *
         *     A guest whose link allows it gets the bundle of what the link shows: its captures, the views it
         *     opens (asked with the guest's own credentials), no raw captures and no postmortem.
         */
        post: operations["export_bundle_api_incidents__incident_id__bundle_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/bundles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import Bundle
         * @description A bundle as a new incident; each capture is parsed again from its stored records.
         */
        post: operations["import_bundle_api_bundles_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flame/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Flame Export
         * @description The view `/api/flame/folded` gives, as pprof or speedscope: the same stacks, the same total.
         */
        get: operations["flame_export_api_flame_export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/timeline/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Timeline Export
         * @description The selection's samples and timed events as Chrome trace-event JSON (Perfetto UI, chrome://tracing).
         *
         *     At most `limit` samples and events (`MAX_TRACE_EVENTS` by default and at most); past it the
         *     trace stops at a time, and its `otherData` says when and how many were left out.
         */
        get: operations["timeline_export_api_timeline_export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/postmortem.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Postmortem Markdown
         * @description The postmortem as Markdown; its images are `images/<name>` (in the zip).
         */
        get: operations["postmortem_markdown_api_incidents__incident_id__postmortem_md_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/postmortem.html": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Postmortem Html
         * @description The postmortem as one self-contained HTML page, its images inline.
         */
        get: operations["postmortem_html_api_incidents__incident_id__postmortem_html_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/postmortem.zip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Postmortem Archive
         * @description `postmortem.md`, `postmortem.html` and `images/*.svg` in one zip.
         */
        get: operations["postmortem_archive_api_incidents__incident_id__postmortem_zip_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/signatures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Signatures */
        get: operations["list_signatures_api_signatures_get"];
        put?: never;
        /**
         * Create Signature
         * @description A rule checked on every watch upload from now on (`analysis/signatures.py` says how).
         */
        post: operations["create_signature_api_signatures_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/signatures/{signature_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change Signature */
        put: operations["change_signature_api_signatures__signature_id__put"];
        post?: never;
        /**
         * Delete Signature
         * @description The signature and the alerts it raised.
         */
        delete: operations["delete_signature_api_signatures__signature_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Webhooks */
        get: operations["list_webhooks_api_webhooks_get"];
        put?: never;
        /**
         * Create Webhook
         * @description Where new alerts are sent from now on, in the receiver's format (`watch/payloads.py`).
         */
        post: operations["create_webhook_api_webhooks_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change Webhook */
        put: operations["change_webhook_api_webhooks__webhook_id__put"];
        post?: never;
        /** Delete Webhook */
        delete: operations["delete_webhook_api_webhooks__webhook_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Alerts
         * @description Alerts, newest first, with their evidence, link and where they were sent.
         */
        get: operations["list_alerts_api_alerts_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/{alert_id}/incident": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open Incident
         * @description Open an incident from the alert, holding the watch rounds that matched and, as its baseline,
         *     the host's round from the day before (parsed anew: its findings and diff follow); asked again,
         *     the incident opened the first time.
         */
        post: operations["open_incident_api_alerts__alert_id__incident_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/incidents/{incident_id}/day-before": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add Day Before
         * @description For each host of the incident that is watched, its watch round from the same time the day
         *     before, copied in as `<host> (day before)` and made the findings' baseline.
         */
        post: operations["add_day_before_api_incidents__incident_id__day_before_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/watch/streams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Streams
         * @description Hosts sending watch captures, each with its stream (an incident id every view takes).
         */
        get: operations["list_streams_api_watch_streams_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics
         * @description Signature matches by host, the parse queue and its lag, and this process's upload gate.
         */
        get: operations["metrics_api_metrics_get"];
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
        /** AlertOut */
        AlertOut: {
            /** Id */
            id: number;
            /** Signature Id */
            signature_id: number;
            /** Signature */
            signature: string;
            /** Pattern */
            pattern: string;
            /**
             * Source
             * @enum {string}
             */
            source: "cpu" | "off-cpu" | "finding";
            /** State */
            state: string | null;
            /** Host */
            host: string;
            /** Stream Id */
            stream_id: number | null;
            /** First Capture Id */
            first_capture_id: number | null;
            /** Last Capture Id */
            last_capture_id: number | null;
            /**
             * First At
             * Format: date-time
             */
            first_at: string;
            /**
             * Last At
             * Format: date-time
             */
            last_at: string;
            /** Matches */
            matches: number;
            /** Share */
            share: number;
            /** Matched Ns */
            matched_ns: number;
            /** Evidence */
            evidence: {
                [key: string]: unknown;
            };
            /** Incident Id */
            incident_id: number | null;
            /** Summary */
            summary: string;
            /** Evidence Url */
            evidence_url: string;
            /** Deliveries */
            deliveries: components["schemas"]["DeliveryOut"][];
        };
        /** AnnotationCreate */
        AnnotationCreate: {
            /**
             * Ts
             * Format: date-time
             */
            ts: string;
            /** Text */
            text: string;
            /** Host */
            host?: string | null;
        };
        /** AnnotationOut */
        AnnotationOut: {
            /** Id */
            id: number;
            /** Incident Id */
            incident_id: number;
            /**
             * Ts
             * Format: date-time
             */
            ts: string;
            /** Text */
            text: string;
            /** Host */
            host: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
        };
        /**
         * AnnotationUpdate
         * @description Only the text changes: moving a note in time is deleting it and pinning a new one.
         */
        AnnotationUpdate: {
            /** Text */
            text: string;
        };
        /** ApiTokenCreate */
        ApiTokenCreate: {
            /** Name */
            name: string;
            /**
             * Expires In Days
             * @default 90
             */
            expires_in_days?: number | null;
        };
        /** ApiTokenCreated */
        ApiTokenCreated: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Expires At */
            expires_at: string | null;
            /** Revoked At */
            revoked_at: string | null;
            /**
             * Secret
             * @description Shown once: set it as STALLSCOPE_TOKEN for the CLI and scripts
             */
            secret: string;
        };
        /** ApiTokenOut */
        ApiTokenOut: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Expires At */
            expires_at: string | null;
            /** Revoked At */
            revoked_at: string | null;
        };
        /** AuditEntryOut */
        AuditEntryOut: {
            /** Id */
            id: number;
            /**
             * At
             * Format: date-time
             */
            at: string;
            /** Actor Kind */
            actor_kind: string;
            /** Actor Id */
            actor_id: number | null;
            /** Actor Name */
            actor_name: string;
            /** Action */
            action: string;
            /** Object Type */
            object_type: string;
            /** Object Id */
            object_id: string | null;
            /** Incident Id */
            incident_id: number | null;
            /** Detail */
            detail: {
                [key: string]: unknown;
            };
            /** Address */
            address: string | null;
        };
        /** BaselineIn */
        BaselineIn: {
            /**
             * Hosts
             * @description The healthy side; an empty list compares with nothing
             */
            hosts: string[];
        };
        /**
         * BundleImportOut
         * @description The new incident and its captures, queued for parsing.
         */
        BundleImportOut: {
            /** Incident Id */
            incident_id: number;
            /** Captures */
            captures: components["schemas"]["ImportedCaptureOut"][];
            /** Skipped */
            skipped: string[];
        };
        /**
         * BundleRequest
         * @description The part of an incident to export. Absent fields mean all of it.
         */
        BundleRequest: {
            /**
             * Captures
             * @description Only these captures (all parsed ones when absent)
             */
            captures?: number[] | null;
            /**
             * Hosts
             * @description Only the captures of these hosts
             */
            hosts?: string[] | null;
            /**
             * Start
             * @description Views and CSV files from this instant (ISO 8601); captures' records travel whole
             */
            start?: string | null;
            /**
             * End
             * @description Views and CSV files before this instant (ISO 8601)
             */
            end?: string | null;
            /**
             * Views
             * @description Saved views (short link ids) to include besides the standard ones
             */
            views?: string[] | null;
            /**
             * Standard Views
             * @description The flame graph, threads and heatmap of each host, the diff, the timeline…
             * @default true
             */
            standard_views?: boolean;
            /**
             * Findings
             * @default true
             */
            findings?: boolean;
            /**
             * Annotations
             * @default true
             */
            annotations?: boolean;
            /**
             * Postmortem
             * @default true
             */
            postmortem?: boolean;
            /**
             * Raw
             * @description Include the raw captures too (redacted like the rest)
             * @default false
             */
            raw?: boolean;
            redaction?: components["schemas"]["RedactionChoice"];
        };
        /** CaptureOut */
        CaptureOut: {
            /** Id */
            id: number;
            /** Incident Id */
            incident_id: number;
            /** Host */
            host: string | null;
            /** Filename */
            filename: string;
            /** Format */
            format: string | null;
            /** Kind */
            kind: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "parsing" | "ready" | "partial" | "empty" | "failed";
            /** Progress */
            progress: number;
            /** Error */
            error: string | null;
            /** Warnings */
            warnings: components["schemas"]["WarningOut"][];
            /** Dropped Lines */
            dropped_lines: number;
            /** Truncated */
            truncated: boolean;
            /** Sha256 */
            sha256: string;
            /** Compression */
            compression: string;
            /** Size Bytes */
            size_bytes: number;
            /** Size Uncompressed */
            size_uncompressed: number | null;
            /** Sample Count */
            sample_count: number;
            /** Stack Count */
            stack_count: number;
            /** Thread Count */
            thread_count: number;
            /** Events */
            events: components["schemas"]["stallscope__captures__schemas__EventOut"][];
            /** Time Start */
            time_start: string | null;
            /** Time End */
            time_end: string | null;
            clock: components["schemas"]["ClockOut"];
            /** Record Counts */
            record_counts: {
                [key: string]: number;
            };
            /** Meta */
            meta: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Parsed At */
            parsed_at: string | null;
            /** Recovery Note */
            recovery_note: string | null;
        };
        /** CaptureRef */
        CaptureRef: {
            /** Id */
            id: number;
            /** Filename */
            filename: string;
            /** Kind */
            kind: string | null;
            /** Format */
            format: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "parsing" | "ready" | "partial" | "empty" | "failed";
            /** Clock Mode */
            clock_mode: ("unaligned" | "anchor" | "host-anchor" | "perf-tod" | "realtime" | "user-offset" | "user-start" | "none") | null;
            /** Clock Note */
            clock_note: string;
            /** Time Start */
            time_start: string | null;
            /** Time End */
            time_end: string | null;
            /** On Timeline */
            on_timeline: boolean;
        };
        /** CheckOut */
        CheckOut: {
            /** Ok */
            ok: boolean;
            /** Detail */
            detail: string;
        };
        /** ChecksOut */
        ChecksOut: {
            database: components["schemas"]["CheckOut"];
            broker: components["schemas"]["CheckOut"];
            worker: components["schemas"]["CheckOut"];
        };
        /**
         * ClockOut
         * @description How the capture's times were put on UTC, beside the rest of the clock info stored with it
         *     (anchors, a time column given at upload…), which is passed through as it is.
         */
        ClockOut: {
            /** Mode */
            mode: ("unaligned" | "anchor" | "host-anchor" | "perf-tod" | "realtime" | "user-offset" | "user-start" | "none") | null;
            /** Wall Clock */
            wall_clock: boolean;
            /** Note */
            note: string;
            /** Offset Ns */
            offset_ns: number;
            /** Shift Ns */
            shift_ns: number;
        } & {
            [key: string]: unknown;
        };
        /**
         * ConfigDiffOut
         * @description B's settings against A's: changed first, then added and removed, then unchanged.
         */
        ConfigDiffOut: {
            a: components["schemas"]["SnapshotRef"];
            b: components["schemas"]["SnapshotRef"];
            /** Changed */
            changed: components["schemas"]["KeyChangeOut"][];
            /** Added */
            added: components["schemas"]["KeyChangeOut"][];
            /** Removed */
            removed: components["schemas"]["KeyChangeOut"][];
            /** Unchanged */
            unchanged: components["schemas"]["KeyChangeOut"][];
            /**
             * Only In A
             * @description Read on A only: no difference can be told
             */
            only_in_a: components["schemas"]["OnlyReadOut"][];
            /** Only In B */
            only_in_b: components["schemas"]["OnlyReadOut"][];
            /**
             * Not Compared A
             * @description Reason -> values set aside (load, counters…)
             */
            not_compared_a: {
                [key: string]: number;
            };
            /** Not Compared B */
            not_compared_b: {
                [key: string]: number;
            };
        };
        /** CpuData */
        CpuData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "cpu";
            /** Id */
            id: string;
            /** Source */
            source: string;
            /**
             * Split
             * @enum {string}
             */
            split: "process" | "thread";
            /** Groups */
            groups: components["schemas"]["CpuGroup"][];
        };
        /** CpuGroup */
        CpuGroup: {
            /** Comm */
            comm: string;
            /** Pid */
            pid: number | null;
            /** Other */
            other: boolean;
            /** Total */
            total: number;
            /** Counts */
            counts: number[];
        };
        /** CpuTrack */
        CpuTrack: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "cpu";
            /** Id */
            id: string;
            /** Host */
            host: string;
            /** Label */
            label: string;
            /** Event */
            event: string;
            /** Samples */
            samples: number;
            /** Top */
            top: components["schemas"]["ProcessShare"][];
            /**
             * Origin
             * @default cpu
             * @enum {string}
             */
            origin: "cpu" | "proc-stack";
            /** State */
            state: string | null;
        };
        /**
         * CustomRuleOut
         * @description One of the policy's own patterns: every match becomes `<name>-N`.
         */
        CustomRuleOut: {
            /** Name */
            name: string;
            /** Pattern */
            pattern: string;
            /** Enabled */
            enabled: boolean;
        };
        /** DayBeforeHostOut */
        DayBeforeHostOut: {
            /** Host */
            host: string;
            /** Baseline Host */
            baseline_host: string;
            /** Captures */
            captures: number[];
            /** Diff Url */
            diff_url: string;
        };
        /** DayBeforeOut */
        DayBeforeOut: {
            /** Added */
            added: components["schemas"]["DayBeforeHostOut"][];
            /** Skipped */
            skipped: string[];
            /** Baseline Hosts */
            baseline_hosts: string[];
        };
        /** DeliveryOut */
        DeliveryOut: {
            /** Webhook */
            webhook: string;
            /**
             * Status
             * @enum {string}
             */
            status: "pending" | "sent" | "failed";
            /** Attempts */
            attempts: number;
            /** Last Error */
            last_error: string;
            /** Sent At */
            sent_at: string | null;
        };
        /**
         * DiffNode
         * @description A frame of the diff's tree, for the OpenAPI schema (the answer's tree is written as JSON text
         *     straight from arrays, never through a model). `value` is the width drawn: B's weight.
         */
        DiffNode: {
            /** Name */
            name: string;
            /**
             * Kind
             * @enum {string}
             */
            kind: "root" | "process" | "user" | "kernel" | "jit" | "inline" | "unknown" | "other" | "deeper";
            /** Value */
            value: number;
            /** A */
            a: number;
            /** B */
            b: number;
            /** Delta */
            delta: number;
            /** Share Delta */
            share_delta: number;
            /** Children */
            children: components["schemas"]["DiffNode"][];
            /** Truncated */
            truncated?: boolean;
            /** Folded Frames */
            folded_frames?: number;
        };
        /**
         * DiffOut
         * @description `GET /api/diff`'s body: the route writes it itself, so this model only states its schema.
         */
        DiffOut: {
            root: components["schemas"]["DiffNode"];
            a: components["schemas"]["SideOut"];
            b: components["schemas"]["SideOut"];
            /**
             * Source
             * @enum {string}
             */
            source: "samples" | "off-cpu" | "proc-stack";
            /** State */
            state: string | null;
            /** Unit */
            unit: string;
            /** Event */
            event: string | null;
            /** Events */
            events: string[];
            /**
             * Normalize
             * @enum {string}
             */
            normalize: "total" | "none";
            /** Scale */
            scale: number;
            /** Functions */
            functions: components["schemas"]["FunctionOut"][];
            /** Function Count */
            function_count: number;
            /** Node Count */
            node_count: number;
            /** Pruned Nodes */
            pruned_nodes: number;
            /** Prune Threshold */
            prune_threshold: number;
            /**
             * Focus
             * @default []
             */
            focus: string[];
            /** Max Depth */
            max_depth: number;
            /**
             * Deep Nodes
             * @default 0
             */
            deep_nodes: number;
            /**
             * Height
             * @default 0
             */
            height: number;
        };
        /** DocumentOut */
        DocumentOut: {
            /** Kind */
            kind: string;
            /** Content */
            content: {
                [key: string]: unknown;
            };
        };
        /** EventBuckets */
        EventBuckets: {
            /** Count */
            count: number[];
            /** Max Ns */
            max_ns: (number | null)[];
        };
        /** EventFacet */
        EventFacet: {
            /** Name */
            name: string;
            /** Samples */
            samples: number;
            /** Unit */
            unit: string;
        };
        /**
         * EventKind
         * @description What a timed event measures; one table holds them all, the kind tells views apart.
         * @enum {string}
         */
        EventKind: "off-cpu" | "on-cpu" | "syscall" | "fault" | "function" | "tracepoint";
        /** EventMark */
        EventMark: {
            /** Ts Us */
            ts_us: number;
            /** Duration Ns */
            duration_ns: number | null;
            /** Name */
            name: string;
            /** Pid */
            pid: number | null;
            /** Tid */
            tid: number | null;
            /** Comm */
            comm: string;
        };
        /** EventPage */
        EventPage: {
            /** Total */
            total: number;
            /** Events */
            events: components["schemas"]["stallscope__events__schemas__EventOut"][];
        };
        /** EventsData */
        EventsData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "events";
            /** Id */
            id: string;
            /** Source */
            source: string;
            /**
             * Mode
             * @enum {string}
             */
            mode: "marks" | "buckets";
            /** Count */
            count: number;
            /** Marks */
            marks: components["schemas"]["EventMark"][];
            buckets: components["schemas"]["EventBuckets"] | null;
        };
        /** EventsTrack */
        EventsTrack: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "events";
            /** Id */
            id: string;
            /** Host */
            host: string;
            /** Label */
            label: string;
            /** Kind */
            kind: string;
            /** Name */
            name: string | null;
            /** Count */
            count: number;
            /** Names */
            names: components["schemas"]["NameCount"][];
        };
        /**
         * EvidenceOut
         * @description One quantified fact: `label: text`, the number behind it, and the console view that shows it.
         */
        EvidenceOut: {
            /** Label */
            label: string;
            /** Text */
            text: string;
            /** Value */
            value: number | null;
            /** Unit */
            unit: string | null;
            /** Baseline */
            baseline: number | null;
            /** View */
            view: string | null;
        };
        /** FacetsOut */
        FacetsOut: {
            /** Events */
            events: components["schemas"]["EventFacet"][];
            /** Processes */
            processes: components["schemas"]["ProcessFacet"][];
            /** Threads */
            threads: components["schemas"]["ThreadFacet"][];
            /** Time Start */
            time_start: string | null;
            /** Time End */
            time_end: string | null;
        };
        /** FindingOut */
        FindingOut: {
            /** Id */
            id: string;
            /** Title */
            title: string;
            /**
             * Severity
             * @enum {string}
             */
            severity: "critical" | "warning" | "info";
            /** Confidence */
            confidence: number;
            /** Summary */
            summary: string;
            /** Hosts */
            hosts: string[];
            /** Threads */
            threads: components["schemas"]["ThreadRefOut"][];
            /** Time Range Ns */
            time_range_ns: [
                number,
                number
            ] | null;
            /** Capture Ids */
            capture_ids: number[];
            /** Evidence */
            evidence: components["schemas"]["EvidenceOut"][];
            /** Baseline */
            baseline: string | null;
            /** Next Checks */
            next_checks: string[];
            /** Remediation */
            remediation: string;
            /** References */
            references: string[];
            /** Score */
            score: number;
            /** View */
            view: string;
            verdict: components["schemas"]["GivenVerdictOut"] | null;
        };
        /** FindingsOut */
        FindingsOut: {
            /**
             * State
             * @enum {string}
             */
            state: "none" | "computing" | "ready";
            /** Computed At */
            computed_at: string | null;
            /** Duration Ms */
            duration_ms: number | null;
            /** Hosts */
            hosts: string[];
            /** Baseline Hosts */
            baseline_hosts: string[];
            /** Captures Pending */
            captures_pending: number;
            /** Notes */
            notes: string[];
            /** Findings */
            findings: components["schemas"]["FindingOut"][];
        };
        /**
         * FlameAnswer
         * @description `GET /api/flame`'s body: the route writes it itself, so this model only states its schema.
         */
        FlameAnswer: {
            /** Total */
            total: number;
            /** Total Samples */
            total_samples: number;
            /** Unit */
            unit: string;
            /** Event */
            event: string | null;
            /** Events */
            events: string[];
            /** Node Count */
            node_count: number;
            /** Pruned Nodes */
            pruned_nodes: number;
            /** Prune Threshold */
            prune_threshold: number;
            /** Focus */
            focus: string[];
            /** Max Depth */
            max_depth: number;
            /**
             * Deep Nodes
             * @default 0
             */
            deep_nodes: number;
            /**
             * Height
             * @default 0
             */
            height: number;
            root: components["schemas"]["FlameNode"];
        };
        /**
         * FlameNode
         * @description A frame of a flame graph's tree, for the OpenAPI schema: the answers write their trees as JSON
         *     text straight from arrays (`analysis/tree_text.py`), never through a model.
         */
        FlameNode: {
            /** Name */
            name: string;
            /** Value */
            value: number;
            /** Samples */
            samples: number;
            /**
             * Kind
             * @enum {string}
             */
            kind: "root" | "process" | "user" | "kernel" | "jit" | "inline" | "unknown" | "other" | "deeper";
            /** Children */
            children: components["schemas"]["FlameNode"][];
            /** Truncated */
            truncated?: boolean;
            /** Folded Frames */
            folded_frames?: number;
        };
        /** FrameOut */
        FrameOut: {
            /** Name */
            name: string;
            /** Kind */
            kind: string;
        };
        /**
         * FunctionOut
         * @description A function's own weights on each side; deltas are B minus A times the response's `scale`.
         */
        FunctionOut: {
            /** Name */
            name: string;
            /** Self A */
            self_a: number;
            /** Self B */
            self_b: number;
            /** Self Delta */
            self_delta: number;
            /** Total A */
            total_a: number;
            /** Total B */
            total_b: number;
            /** Total Delta */
            total_delta: number;
        };
        /** GivenVerdictOut */
        GivenVerdictOut: {
            /**
             * Verdict
             * @enum {string}
             */
            verdict: "confirmed" | "dismissed";
            /** Note */
            note: string;
            /**
             * At
             * Format: date-time
             */
            at: string;
        };
        /** GridOut */
        GridOut: {
            /** Start Us */
            start_us: number;
            /** Width Us */
            width_us: number;
            /** Count */
            count: number;
        };
        /** GuestLinkCreate */
        GuestLinkCreate: {
            /**
             * Label
             * @description Who it is for, e.g. 'vendor support'
             * @default
             */
            label?: string;
            /**
             * Expires In Days
             * @default 14
             */
            expires_in_days?: number | null;
            /**
             * Capture Ids
             * @description Only these captures (all when absent)
             */
            capture_ids?: number[] | null;
            /**
             * Views
             * @description Only these views (all when absent)
             */
            views?: string[] | null;
            /**
             * Bundle
             * @description The guest may download the bundle of what the link shows
             * @default false
             */
            bundle?: boolean;
        };
        /** GuestLinkCreated */
        GuestLinkCreated: {
            /** Id */
            id: number;
            /** Incident Id */
            incident_id: number;
            /** Label */
            label: string;
            /** Prefix */
            prefix: string;
            /** Capture Ids */
            capture_ids: number[] | null;
            /** Views */
            views: ("timeline" | "flame" | "diff" | "threads" | "heatmap" | "metrics" | "events" | "snapshots" | "findings")[] | null;
            /** Created By */
            created_by: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Expires At
             * Format: date-time
             */
            expires_at: string;
            /** Revoked At */
            revoked_at: string | null;
            /** Last Used At */
            last_used_at: string | null;
            /** Uses */
            uses: number;
            /** Bundle */
            bundle: boolean;
            /** Secret */
            secret: string;
            /**
             * Path
             * @description Open this path on the console: /g/<secret> (shown once)
             */
            path: string;
        };
        /** GuestLinkOut */
        GuestLinkOut: {
            /** Id */
            id: number;
            /** Incident Id */
            incident_id: number;
            /** Label */
            label: string;
            /** Prefix */
            prefix: string;
            /** Capture Ids */
            capture_ids: number[] | null;
            /** Views */
            views: ("timeline" | "flame" | "diff" | "threads" | "heatmap" | "metrics" | "events" | "snapshots" | "findings")[] | null;
            /** Created By */
            created_by: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Expires At
             * Format: date-time
             */
            expires_at: string;
            /** Revoked At */
            revoked_at: string | null;
            /** Last Used At */
            last_used_at: string | null;
            /** Uses */
            uses: number;
            /** Bundle */
            bundle: boolean;
        };
        /** HTTPValidationError */
        HTTPValidationError: {
            /** Detail */
            detail?: components["schemas"]["ValidationError"][];
        };
        /** HealthOut */
        HealthOut: {
            /**
             * Status
             * @enum {string}
             */
            status: "ok" | "unavailable";
            /** Version */
            version: string;
            checks: components["schemas"]["ChecksOut"];
            queue: components["schemas"]["QueueOut"] | null;
        };
        /**
         * HeatmapOut
         * @description `values[column][row]`: columns are seconds (or merged k-second spans), rows offsets in them.
         */
        HeatmapOut: {
            /**
             * Stream
             * @enum {string}
             */
            stream: "samples" | "off-cpu" | "on-cpu" | "syscall" | "fault" | "function" | "tracepoint";
            /**
             * Value
             * @enum {string}
             */
            value: "count" | "duration";
            /** Unit */
            unit: string;
            /** Event */
            event: string | null;
            /** Name */
            name: string | null;
            /** State */
            state: string | null;
            /** Rows */
            rows: number;
            /** Row Us */
            row_us: number;
            /** First Second */
            first_second: number;
            /** Column Seconds */
            column_seconds: number;
            /** Columns */
            columns: number;
            /** Start */
            start: string | null;
            /** End */
            end: string | null;
            /** Values */
            values: number[][];
            /** Counts */
            counts: number[][] | null;
            /** Row Totals */
            row_totals: number[];
            /** Max */
            max: number;
            /** Total */
            total: number;
            /** Total Count */
            total_count: number;
            /** Unclosed */
            unclosed: number;
            /** Hot */
            hot: components["schemas"]["HotCellOut"][];
            /** Wall Clock */
            wall_clock: boolean;
            /** Notes */
            notes: string[];
        };
        /** HostTracks */
        HostTracks: {
            /** Host */
            host: string;
            /** Unaligned */
            unaligned: boolean;
            /** Captures */
            captures: components["schemas"]["CaptureRef"][];
            /** Tracks */
            tracks: (components["schemas"]["CpuTrack"] | components["schemas"]["OffCpuTrack"] | components["schemas"]["EventsTrack"] | components["schemas"]["MetricTrack"])[];
        };
        /** HotCellOut */
        HotCellOut: {
            /** Column */
            column: number;
            /** Second */
            second: number;
            /** Seconds */
            seconds: number;
            /**
             * Start
             * Format: date-time
             */
            start: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
            /** Row */
            row: number;
            /** Offset Start Us */
            offset_start_us: number;
            /** Offset End Us */
            offset_end_us: number;
            /** Value */
            value: number;
            /** Count */
            count: number;
        };
        /** ImportedCaptureOut */
        ImportedCaptureOut: {
            /** Id */
            id: number;
            /** Filename */
            filename: string;
            /** Host */
            host: string | null;
        };
        /** IncidentCreate */
        IncidentCreate: {
            /** Title */
            title: string;
            /**
             * Severity
             * @default sev3
             * @enum {string}
             */
            severity?: "sev1" | "sev2" | "sev3" | "sev4";
            /**
             * Started At
             * Format: date-time
             */
            started_at: string;
            /**
             * Summary
             * @default
             */
            summary?: string;
            /**
             * Visibility
             * @description team: everyone with an account; restricted: its members and admins
             * @default team
             * @enum {string}
             */
            visibility?: "team" | "restricted";
            /**
             * Members
             * @description User names who may see a restricted incident
             */
            members?: string[];
        };
        /** IncidentOut */
        IncidentOut: {
            /** Id */
            id: number;
            /** Title */
            title: string;
            /**
             * Severity
             * @enum {string}
             */
            severity: "sev1" | "sev2" | "sev3" | "sev4";
            /**
             * Started At
             * Format: date-time
             */
            started_at: string;
            /** Summary */
            summary: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Capture Count */
            capture_count: number;
            /**
             * Visibility
             * @default team
             * @enum {string}
             */
            visibility: "team" | "restricted";
            /** Members */
            members: string[];
            /**
             * Status
             * @default investigating
             * @enum {string}
             */
            status: "investigating" | "identified" | "mitigated" | "resolved";
            /** Identified At */
            identified_at: string | null;
            /** Mitigated At */
            mitigated_at: string | null;
            /** Resolved At */
            resolved_at: string | null;
            /**
             * Root Cause
             * @default
             */
            root_cause: string;
            /**
             * Remediation
             * @default
             */
            remediation: string;
            /** Updated At */
            updated_at: string | null;
            /** Watch Host */
            watch_host: string | null;
        };
        /**
         * IncidentPatch
         * @description Only the fields sent change; `members` replaces the member list.
         */
        IncidentPatch: {
            /** Title */
            title?: string | null;
            /** Summary */
            summary?: string | null;
            /** Severity */
            severity?: ("sev1" | "sev2" | "sev3" | "sev4") | null;
            /**
             * Status
             * @description Setting a status stamps its time the first time; going back keeps stamps
             */
            status?: ("investigating" | "identified" | "mitigated" | "resolved") | null;
            /** Root Cause */
            root_cause?: string | null;
            /** Remediation */
            remediation?: string | null;
            /** Visibility */
            visibility?: ("team" | "restricted") | null;
            /** Members */
            members?: string[] | null;
        };
        /** KeyChangeOut */
        KeyChangeOut: {
            /** Section */
            section: string;
            /** Key */
            key: string;
            /**
             * Status
             * @enum {string}
             */
            status: "changed" | "added" | "removed" | "unchanged";
            /** A */
            a: string | null;
            /** B */
            b: string | null;
            /** A Note */
            a_note: string | null;
            /** B Note */
            b_note: string | null;
            /** Hint */
            hint: string | null;
        };
        /**
         * LatencyOut
         * @description Waits for a CPU once runnable (scheduler latency).
         */
        LatencyOut: {
            /** Count */
            count: number;
            /** P50 Ns */
            p50_ns: number | null;
            /** P90 Ns */
            p90_ns: number | null;
            /** P99 Ns */
            p99_ns: number | null;
            /** Max Ns */
            max_ns: number | null;
        };
        /**
         * LockOut
         * @description One futex and the threads that waited on it.
         */
        LockOut: {
            /** Capture Id */
            capture_id: number;
            /** Host */
            host: string | null;
            /** Pid */
            pid: number | null;
            /**
             * Kind
             * @enum {string}
             */
            kind: "address" | "site";
            /** Address */
            address: string | null;
            /** Stack Id */
            stack_id: number | null;
            /** Frames */
            frames: string[];
            /** Caller */
            caller: string[];
            /** Waits */
            waits: number;
            /** Total Ns */
            total_ns: number;
            /** Longest Ns */
            longest_ns: number;
            /** Inferred Ns */
            inferred_ns: number;
            /** Waiter Count */
            waiter_count: number;
            /** Waiters */
            waiters: components["schemas"]["LockWaiterOut"][];
        };
        /** LockWaiterOut */
        LockWaiterOut: {
            /** Pid */
            pid: number | null;
            /** Tid */
            tid: number;
            /** Comm */
            comm: string;
            /** Waits */
            waits: number;
            /** Total Ns */
            total_ns: number;
            /** Longest Ns */
            longest_ns: number;
            /** Inferred Ns */
            inferred_ns: number;
        };
        /** LoginIn */
        LoginIn: {
            /** Username */
            username: string;
            /** Password */
            password: string;
        };
        /**
         * MeOut
         * @description Who the console is talking to: a person, or a guest link's holder.
         */
        MeOut: {
            /** Name */
            name: string;
            /**
             * Role
             * @enum {string}
             */
            role: "viewer" | "responder" | "admin" | "guest";
            /**
             * Via
             * @enum {string}
             */
            via: "session" | "token" | "guest";
            /** User Id */
            user_id: number | null;
            /** Incident Id */
            incident_id: number | null;
            /** Capture Ids */
            capture_ids: number[] | null;
            /** Views */
            views: ("timeline" | "flame" | "diff" | "threads" | "heatmap" | "metrics" | "events" | "snapshots" | "findings")[] | null;
            /** Permissions */
            permissions: components["schemas"]["Permission"][];
            /** Expires At */
            expires_at: string | null;
        };
        /** MetricBuckets */
        MetricBuckets: {
            /** Count */
            count: number[];
            /** Min */
            min: (number | null)[];
            /** Avg */
            avg: (number | null)[];
            /** Max */
            max: (number | null)[];
        };
        /** MetricData */
        MetricData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "metric";
            /** Id */
            id: string;
            /** Source */
            source: string;
            /** Unit */
            unit: string | null;
            /**
             * Mode
             * @enum {string}
             */
            mode: "points" | "buckets";
            /** Count */
            count: number;
            /** Points */
            points: components["schemas"]["MetricPointOut"][];
            buckets: components["schemas"]["MetricBuckets"] | null;
        };
        /** MetricPointOut */
        MetricPointOut: {
            /** Ts Us */
            ts_us: number;
            /** Value */
            value: number;
        };
        /** MetricTrack */
        MetricTrack: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "metric";
            /** Id */
            id: string;
            /** Host */
            host: string;
            /** Label */
            label: string;
            /** Name */
            name: string;
            /** Labels */
            labels: {
                [key: string]: string;
            };
            /** Unit */
            unit: string | null;
            /** System */
            system: boolean;
            /** Points */
            points: number;
            /** Min */
            min: number | null;
            /** Max */
            max: number | null;
        };
        /** NameCount */
        NameCount: {
            /** Name */
            name: string;
            /** Count */
            count: number;
            /** Max Ns */
            max_ns: number | null;
        };
        /** OffCpuData */
        OffCpuData: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "offcpu";
            /** Id */
            id: string;
            /** Source */
            source: string;
            /** States */
            states: components["schemas"]["StateSeries"][];
        };
        /** OffCpuTrack */
        OffCpuTrack: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "offcpu";
            /** Id */
            id: string;
            /** Host */
            host: string;
            /** Label */
            label: string;
            /** Intervals */
            intervals: number;
            /** Unclosed */
            unclosed: number;
            /** States */
            states: components["schemas"]["StateTotal"][];
        };
        /** OidcOut */
        OidcOut: {
            /** Enabled */
            enabled: boolean;
            /** Label */
            label: string;
        };
        /** OnlyReadOut */
        OnlyReadOut: {
            /** Section */
            section: string;
            /** Count */
            count: number;
            /** Keys */
            keys: string[];
            /** Whole Section */
            whole_section: boolean;
        };
        /** OpenedIncidentOut */
        OpenedIncidentOut: {
            /** Incident Id */
            incident_id: number;
            /** Captures */
            captures: number[];
            /** Baseline Captures */
            baseline_captures: number[];
            /** Baseline Host */
            baseline_host: string | null;
            /** Diff Url */
            diff_url: string | null;
        };
        /** PasswordChange */
        PasswordChange: {
            /** Current */
            current: string;
            /** New */
            new: string;
        };
        /**
         * Permission
         * @enum {string}
         */
        Permission: "read" | "respond" | "upload" | "admin" | "export";
        /** PointOut */
        PointOut: {
            /**
             * Ts
             * Format: date-time
             */
            ts: string;
            /** Avg */
            avg: number;
            /** Min */
            min: number;
            /** Max */
            max: number;
            /** Count */
            count: number;
            /** P50 */
            p50: number | null;
            /** P90 */
            p90: number | null;
            /** P99 */
            p99: number | null;
        };
        /** PreviewExample */
        PreviewExample: {
            /** Source */
            source: string;
            /** Before */
            before: string;
            /** Match */
            match: string;
            /** After */
            after: string;
            /** Replacement */
            replacement: string;
        };
        /** PreviewRule */
        PreviewRule: {
            /** Id */
            id: string;
            /** Label */
            label: string;
            /** Enabled */
            enabled: boolean;
            /** Matches */
            matches: number;
            /** Examples */
            examples: components["schemas"]["PreviewExample"][];
        };
        /** ProcessFacet */
        ProcessFacet: {
            /** Pid */
            pid: number | null;
            /** Comm */
            comm: string;
            /** Samples */
            samples: number;
        };
        /** ProcessShare */
        ProcessShare: {
            /** Comm */
            comm: string;
            /** Pid */
            pid: number | null;
            /** Samples */
            samples: number;
        };
        /**
         * QueueOut
         * @description How far behind parsing is; not part of the status (a long queue is slow, not down).
         */
        QueueOut: {
            /** Queued */
            queued: number;
            /** Parsing */
            parsing: number;
            /** Oldest Queued S */
            oldest_queued_s: number | null;
            /** Broker Messages */
            broker_messages: number | null;
            /** Uploads In Flight */
            uploads_in_flight: number;
        };
        /**
         * RedactionChoice
         * @description `default` (every built-in rule), `none`, or `custom` with the rules the preview edited.
         */
        RedactionChoice: {
            /**
             * Mode
             * @default default
             * @enum {string}
             */
            mode?: "default" | "none" | "custom";
            /**
             * Policy
             * @description With mode custom: the policy as the preview returns it (rules on/off, custom rules)
             */
            policy?: {
                [key: string]: unknown;
            } | null;
        };
        /**
         * RedactionPolicyOut
         * @description A redaction policy in `redaction/policy_io.py`'s JSON shape: what the preview answers, and what a
         *     custom export sends back (as `RedactionChoice.policy`).
         */
        RedactionPolicyOut: {
            /** Rules */
            rules: {
                [key: string]: boolean;
            };
            /** Path Prefixes */
            path_prefixes: string[];
            /** Path Depth */
            path_depth: number;
            /** Hash Symbols */
            hash_symbols: boolean;
            /** Custom */
            custom: components["schemas"]["CustomRuleOut"][];
        };
        /**
         * RedactionPreviewOut
         * @description Each rule, how often it matches what the bundle would hold, and examples in context.
         */
        RedactionPreviewOut: {
            /** Rules */
            rules: components["schemas"]["PreviewRule"][];
            policy: components["schemas"]["RedactionPolicyOut"];
            /** Sources */
            sources: number;
        };
        /**
         * RetentionPolicy
         * @description Every field is required on PUT (null where allowed), so a partial body cannot reset the rest.
         */
        RetentionPolicy: {
            /**
             * Resolved After Days
             * @description Trash captures of incidents resolved this many days ago; null: never
             */
            resolved_after_days: number | null;
            /**
             * Failed After Days
             * @description Trash failed uploads this many days old; null: never (default 30)
             */
            failed_after_days: number | null;
            /**
             * Watch Days
             * @description Trash hosts' watch captures this many days old; null: never (default 7)
             */
            watch_days: number | null;
            /**
             * Trash Days
             * @description Purge what has been in the trash this long (default 7)
             */
            trash_days: number;
        };
        /** SegmentOut */
        SegmentOut: {
            /**
             * Start
             * Format: date-time
             */
            start: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
            /**
             * State
             * @enum {string}
             */
            state: "running" | "runnable" | "sleeping" | "uninterruptible" | "other" | "unknown";
            /** Inferred */
            inferred: boolean;
        };
        /** SeriesOut */
        SeriesOut: {
            /** Id */
            id: number;
            /** Capture Id */
            capture_id: number;
            /** Name */
            name: string;
            /** Labels */
            labels: {
                [key: string]: string;
            };
            /** Unit */
            unit: string | null;
            /** Points */
            points: number;
            /** First */
            first: string | null;
            /** Last */
            last: string | null;
            /** Host */
            host: string | null;
            /** Capture Filename */
            capture_filename: string | null;
            /** Capture Start */
            capture_start: string | null;
            /**
             * Named Kind
             * @default gauge
             * @enum {string}
             */
            named_kind: "counter" | "latency" | "gauge";
        };
        /** SeriesPoints */
        SeriesPoints: {
            /** Series Id */
            series_id: number;
            /** Bucket Ns */
            bucket_ns: number;
            /** Points */
            points: components["schemas"]["PointOut"][];
            /**
             * Kind
             * @default gauge
             * @enum {string}
             */
            kind: "counter" | "latency" | "gauge";
            /**
             * Kind Reason
             * @default
             */
            kind_reason: string;
            /**
             * Drawn
             * @description values as stored, or a counter's increase per second
             * @default values
             * @enum {string}
             */
            drawn: "values" | "rate";
            /**
             * Unit
             * @description Of the drawn values (a rate adds /s)
             */
            unit: string | null;
            /**
             * Start
             * @description The grid's first bucket starts here
             */
            start: string | null;
            /** End */
            end: string | null;
            /**
             * Resets
             * @description Counter resets (falls to near zero) in the range
             * @default 0
             */
            resets: number;
        };
        /** ShareCreate */
        ShareCreate: {
            /**
             * Target
             * @description Path and query of a view, e.g. /flame?v=3&incident=4
             */
            target: string;
        };
        /** ShareOut */
        ShareOut: {
            /** Id */
            id: string;
            /** Target */
            target: string;
            /** Path */
            path: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
        };
        /** ShiftRequest */
        ShiftRequest: {
            /**
             * Shift
             * @description The capture's whole shift, e.g. '+2.5s', '-300ms', '0'
             */
            shift: string;
        };
        /**
         * SideOut
         * @description What one side selected: its captures and the weight and count of what matched.
         */
        SideOut: {
            /** Captures */
            captures: number[];
            /** Total */
            total: number;
            /** Samples */
            samples: number;
        };
        /** SignatureIn */
        SignatureIn: {
            /** Name */
            name: string;
            /**
             * Pattern
             * @description Regular expression searched in frame names
             */
            pattern: string;
            /**
             * Source
             * @default cpu
             * @enum {string}
             */
            source?: "cpu" | "off-cpu" | "finding";
            /**
             * State
             * @description Off-CPU only: one scheduler state
             */
            state?: string | null;
            /**
             * Process
             * @description Regular expression on process names
             */
            process?: string | null;
            /**
             * Min Share
             * @description Share of the window (0-1)
             */
            min_share?: number | null;
            /**
             * Min Ms
             * @description Off-CPU only: matched time per window
             */
            min_ms?: number | null;
            /**
             * Cooldown S
             * @default 1800
             */
            cooldown_s?: number;
            /**
             * Enabled
             * @default true
             */
            enabled?: boolean;
            /**
             * Description
             * @default
             */
            description?: string;
        };
        /** SignatureOut */
        SignatureOut: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Pattern */
            pattern: string;
            /**
             * Source
             * @enum {string}
             */
            source: "cpu" | "off-cpu" | "finding";
            /** State */
            state: string | null;
            /** Process */
            process: string | null;
            /** Min Share */
            min_share: number | null;
            /** Min Ms */
            min_ms: number | null;
            /** Cooldown S */
            cooldown_s: number;
            /** Enabled */
            enabled: boolean;
            /** Description */
            description: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * SnapshotRef
         * @description One snapshot of an incident: a capture, and which take of it (0 for the collector's).
         */
        SnapshotRef: {
            /** Capture Id */
            capture_id: number;
            /** Filename */
            filename: string;
            /** Take */
            take: number;
            /**
             * Label
             * @description start, end, before, after… when the file marks its takes
             */
            label: string | null;
            /** Host */
            host: string | null;
            /** Taken At Ns */
            taken_at_ns: number | null;
            /**
             * Source
             * @enum {string}
             */
            source: "collector" | "text";
        };
        /** StartRequest */
        StartRequest: {
            /**
             * Start
             * @description Wall-clock start of a capture nothing else aligns (ISO 8601, e.g. '2026-11-25T14:02:10Z'); null forgets a start given before
             */
            start: string | null;
        };
        /** StateSeries */
        StateSeries: {
            /** State */
            state: string;
            /** Total Ns */
            total_ns: number;
            /** Ns */
            ns: number[];
        };
        /**
         * StateTimesOut
         * @description Nanoseconds in each state (0 for a state the thread was never in).
         */
        StateTimesOut: {
            /**
             * Running
             * @default 0
             */
            running: number;
            /**
             * Runnable
             * @default 0
             */
            runnable: number;
            /**
             * Sleeping
             * @default 0
             */
            sleeping: number;
            /**
             * Uninterruptible
             * @default 0
             */
            uninterruptible: number;
            /**
             * Other
             * @default 0
             */
            other: number;
            /**
             * Unknown
             * @default 0
             */
            unknown: number;
        };
        /** StateTotal */
        StateTotal: {
            /** State */
            state: string;
            /** Intervals */
            intervals: number;
            /** Total Ns */
            total_ns: number;
            /** Max Ns */
            max_ns: number | null;
        };
        /** StorageOut */
        StorageOut: {
            /** Incident Id */
            incident_id: number;
            /** Captures */
            captures: number;
            /** Trashed Captures */
            trashed_captures: number;
            /** Raw Bytes */
            raw_bytes: number;
            /** Shared Raw Bytes */
            shared_raw_bytes: number;
            /** Rows */
            rows: {
                [key: string]: number;
            };
        };
        /** StreamNameOut */
        StreamNameOut: {
            /** Name */
            name: string;
            /** Count */
            count: number;
            /** Durations */
            durations: boolean;
        };
        /** StreamOut */
        StreamOut: {
            /**
             * Stream
             * @enum {string}
             */
            stream: "samples" | "off-cpu" | "on-cpu" | "syscall" | "fault" | "function" | "tracepoint";
            /** Count */
            count: number;
            /** Unit */
            unit: string;
            /** Durations */
            durations: boolean;
            /** Names */
            names: components["schemas"]["StreamNameOut"][];
        };
        /** StreamsOut */
        StreamsOut: {
            /** Streams */
            streams: components["schemas"]["StreamOut"][];
            /** Default */
            default: ("samples" | "off-cpu" | "on-cpu" | "syscall" | "fault" | "function" | "tracepoint") | null;
            /** Wall Clock */
            wall_clock: boolean;
            /** Notes */
            notes: string[];
        };
        /** StripOut */
        StripOut: {
            /**
             * Source
             * @enum {string}
             */
            source: "sched" | "proc-sampler" | "none";
            /** Tid */
            tid: number;
            /** Segments */
            segments: components["schemas"]["SegmentOut"][];
        };
        /** ThreadFacet */
        ThreadFacet: {
            /** Pid */
            pid: number | null;
            /** Tid */
            tid: number | null;
            /** Comm */
            comm: string;
            /** Samples */
            samples: number;
        };
        /** ThreadOut */
        ThreadOut: {
            /** Capture Id */
            capture_id: number;
            /** Host */
            host: string | null;
            /** Pid */
            pid: number | null;
            /** Tid */
            tid: number;
            /** Comm */
            comm: string;
            /** Wall Ns */
            wall_ns: number;
            states: components["schemas"]["StateTimesOut"];
            inferred: components["schemas"]["StateTimesOut"];
            /** Other States */
            other_states: {
                [key: string]: number;
            };
            /** Intervals */
            intervals: number;
            /** Inferred Intervals */
            inferred_intervals: number;
            latency: components["schemas"]["LatencyOut"];
            /** Wakers */
            wakers: components["schemas"]["WakerOut"][];
            /** Top Stacks */
            top_stacks: {
                [key: string]: components["schemas"]["TopStackOut"][];
            };
        };
        /** ThreadRefOut */
        ThreadRefOut: {
            /** Host */
            host: string;
            /** Pid */
            pid: number | null;
            /** Tid */
            tid: number | null;
            /** Comm */
            comm: string;
        };
        /** ThreadsOut */
        ThreadsOut: {
            /**
             * Source
             * @enum {string}
             */
            source: "sched" | "proc-sampler" | "none";
            /** Start */
            start: string | null;
            /** End */
            end: string | null;
            /** Threads */
            threads: components["schemas"]["ThreadOut"][];
            /** Total Threads */
            total_threads: number;
            /** Locks */
            locks: components["schemas"]["LockOut"][];
            /** Notes */
            notes: string[];
        };
        /** TimeRangeOut */
        TimeRangeOut: {
            /**
             * Start
             * Format: date-time
             */
            start: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
        };
        /** TimelineOut */
        TimelineOut: {
            /**
             * Start
             * Format: date-time
             */
            start: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
            grid: components["schemas"]["GridOut"];
            /** Tracks */
            tracks: (components["schemas"]["CpuData"] | components["schemas"]["OffCpuData"] | components["schemas"]["EventsData"] | components["schemas"]["MetricData"])[];
            /** Missing */
            missing: string[];
            /** Query Ms */
            query_ms: number;
        };
        /** TokenCreate */
        TokenCreate: {
            /**
             * Name
             * @description Who or what uses it, e.g. 'db hosts'
             */
            name: string;
            /**
             * Incident Id
             * @description Only uploads to this incident
             */
            incident_id?: number | null;
            /**
             * Host
             * @description Only uploads for this host
             */
            host?: string | null;
            /**
             * Expires At
             * @description No uploads after this time
             */
            expires_at?: string | null;
        };
        /** TokenCreated */
        TokenCreated: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Revoked At */
            revoked_at: string | null;
            /** Incident Id */
            incident_id: number | null;
            /** Host */
            host: string | null;
            /** Expires At */
            expires_at: string | null;
            /** Created By */
            created_by: number | null;
            /**
             * Secret
             * @description Shown once; set it as STALLSCOPE_TOKEN on the hosts
             */
            secret: string;
        };
        /** TokenOut */
        TokenOut: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Prefix */
            prefix: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Revoked At */
            revoked_at: string | null;
            /** Incident Id */
            incident_id: number | null;
            /** Host */
            host: string | null;
            /** Expires At */
            expires_at: string | null;
            /** Created By */
            created_by: number | null;
        };
        /**
         * TopStackOut
         * @description A blocking stack's part of the thread's time in one state.
         */
        TopStackOut: {
            /** Stack Id */
            stack_id: number;
            /** Ns */
            ns: number;
            /** Share */
            share: number;
            /** Count */
            count: number;
            /** Longest Ns */
            longest_ns: number;
            /** Frames */
            frames: string[];
        };
        /** TracksOut */
        TracksOut: {
            /** Incident */
            incident: number;
            /** Time Start */
            time_start: string | null;
            /** Time End */
            time_end: string | null;
            /** Hosts */
            hosts: components["schemas"]["HostTracks"][];
        };
        /** TrashOut */
        TrashOut: {
            /** Trash Days */
            trash_days: number;
            /** Incidents */
            incidents: components["schemas"]["TrashedIncident"][];
            /** Captures */
            captures: components["schemas"]["TrashedCapture"][];
        };
        /** TrashedCapture */
        TrashedCapture: {
            /** Id */
            id: number;
            /** Incident Id */
            incident_id: number;
            /** Incident Title */
            incident_title: string;
            /** Filename */
            filename: string;
            /** Size Bytes */
            size_bytes: number;
            /**
             * Deleted At
             * Format: date-time
             */
            deleted_at: string;
            /**
             * Purge After
             * Format: date-time
             */
            purge_after: string;
        };
        /** TrashedIncident */
        TrashedIncident: {
            /** Id */
            id: number;
            /** Title */
            title: string;
            /**
             * Deleted At
             * Format: date-time
             */
            deleted_at: string;
            /**
             * Purge After
             * Format: date-time
             */
            purge_after: string;
            /** Capture Count */
            capture_count: number;
        };
        /** UserChange */
        UserChange: {
            /** Role */
            role?: ("viewer" | "responder" | "admin") | null;
            /** Disabled */
            disabled?: boolean | null;
            /** Password */
            password?: string | null;
        };
        /** UserCreate */
        UserCreate: {
            /** Name */
            name: string;
            /**
             * Role
             * @enum {string}
             */
            role: "viewer" | "responder" | "admin";
            /** Password */
            password?: string | null;
            /** Email */
            email?: string | null;
        };
        /** UserOut */
        UserOut: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /**
             * Role
             * @enum {string}
             */
            role: "viewer" | "responder" | "admin";
            /** Has Password */
            has_password: boolean;
            /** Sso */
            sso: boolean;
            /** Email */
            email: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Login At */
            last_login_at: string | null;
            /** Disabled At */
            disabled_at: string | null;
        };
        /** ValidationError */
        ValidationError: {
            /** Location */
            loc: (string | number)[];
            /** Message */
            msg: string;
            /** Error Type */
            type: string;
            /** Input */
            input?: unknown;
            /** Context */
            ctx?: Record<string, never>;
        };
        /** VerdictIn */
        VerdictIn: {
            /** Verdict */
            verdict: ("confirmed" | "dismissed") | null;
            /**
             * Note
             * @default
             */
            note?: string;
        };
        /** VerdictOut */
        VerdictOut: {
            /** Verdict */
            verdict: ("confirmed" | "dismissed") | null;
            /** Note */
            note: string;
            /** At */
            at: string | null;
        };
        /** WakerOut */
        WakerOut: {
            /** Tid */
            tid: number | null;
            /** Comm */
            comm: string;
            /** Wakeups */
            wakeups: number;
        };
        /** WarningOut */
        WarningOut: {
            /** Line */
            line: number;
            /** Message */
            message: string;
        };
        /** WatchStreamOut */
        WatchStreamOut: {
            /** Id */
            id: number;
            /** Host */
            host: string;
            /** Captures */
            captures: number;
            /** Last Upload */
            last_upload: string | null;
        };
        /** WebhookIn */
        WebhookIn: {
            /** Name */
            name: string;
            /**
             * Url
             * Format: uri
             */
            url: string;
            /**
             * Format
             * @default json
             * @enum {string}
             */
            format?: "json" | "alertmanager" | "slack";
            /**
             * Enabled
             * @default true
             */
            enabled?: boolean;
        };
        /** WebhookOut */
        WebhookOut: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Url */
            url: string;
            /**
             * Format
             * @enum {string}
             */
            format: "json" | "alertmanager" | "slack";
            /** Enabled */
            enabled: boolean;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
        };
        /** WindowBaselineOut */
        WindowBaselineOut: {
            /**
             * Start
             * Format: date-time
             */
            start: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
            /**
             * Side
             * @enum {string}
             */
            side: "before" | "after";
        };
        /**
         * WindowFindingsOut
         * @description Findings of a time window, computed on request (not stored): what the window shows that the
         *     rest of the time range does not.
         */
        WindowFindingsOut: {
            window: components["schemas"]["TimeRangeOut"];
            baseline: components["schemas"]["WindowBaselineOut"] | null;
            /** Hosts */
            hosts: string[];
            /** Capture Ids */
            capture_ids: number[];
            /** Duration Ms */
            duration_ms: number;
            /** Notes */
            notes: string[];
            /** Findings */
            findings: components["schemas"]["FindingOut"][];
        };
        /** EventOut */
        stallscope__captures__schemas__EventOut: {
            /** Name */
            name: string;
            /** Samples */
            samples: number;
            /**
             * Weight
             * @default 0
             */
            weight: number;
            /**
             * Unit
             * @default samples
             */
            unit: string;
        };
        /** EventOut */
        stallscope__events__schemas__EventOut: {
            /** Capture Id */
            capture_id: number;
            /**
             * Ts
             * Format: date-time
             */
            ts: string;
            /** Duration Ns */
            duration_ns: number | null;
            kind: components["schemas"]["EventKind"];
            /** Name */
            name: string;
            /** Pid */
            pid: number | null;
            /** Tid */
            tid: number | null;
            /** Comm */
            comm: string;
            /** Cpu */
            cpu: number | null;
            /** State */
            state: string | null;
            /** Stack Id */
            stack_id: number | null;
            /** Waker Tid */
            waker_tid: number | null;
            /** Args */
            args: string | null;
            /** Result */
            result: string | null;
            /** Attrs */
            attrs: {
                [key: string]: unknown;
            } | null;
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
    health_api_health_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthOut"];
                };
            };
            /** @description A part is down: the same body names it */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthOut"];
                };
            };
        };
    };
    post_login_api_auth_login_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_logout_api_auth_logout_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    get_me_api_auth_me_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
        };
    };
    change_password_api_auth_password_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_api_tokens_api_auth_tokens_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiTokenOut"][];
                };
            };
        };
    };
    create_api_token_api_auth_tokens_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiTokenCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiTokenCreated"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    revoke_api_token_api_auth_tokens__token_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiTokenOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_users_api_users_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserOut"][];
                };
            };
        };
    };
    create_user_api_users_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    change_user_api_users__user_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserChange"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    read_audit_api_audit_get: {
        parameters: {
            query?: {
                /** @description Who (a user name, a guest link's label) */
                actor?: string | null;
                /** @description create, change, delete, share, export, guest-view, login… */
                action?: string | null;
                /** @description Entries about this incident */
                incident?: number | null;
                /** @description From this time, ISO 8601 */
                since?: string | null;
                /** @description Before this time, ISO 8601 */
                until?: string | null;
                /** @description Entries older than this entry id (paging) */
                before?: number | null;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_guest_links_api_incidents__incident_id__guest_links_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GuestLinkOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_guest_link_api_incidents__incident_id__guest_links_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GuestLinkCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GuestLinkCreated"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    revoke_guest_link_api_guest_links__link_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                link_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GuestLinkOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    open_guest_link_api_guest__secret__post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                secret: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    oidc_status_api_auth_oidc_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcOut"];
                };
            };
        };
    };
    oidc_login_api_auth_oidc_login_get: {
        parameters: {
            query?: {
                /** @description Where to land after signing in (a path) */
                next?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    oidc_callback_api_auth_oidc_callback_get: {
        parameters: {
            query?: {
                code?: string | null;
                state?: string | null;
                error?: string | null;
                error_description?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_incidents_api_incidents_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentOut"][];
                };
            };
        };
    };
    create_incident_api_incidents_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IncidentCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_incident_api_incidents__incident_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    trash_incident_api_incidents__incident_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_incident_api_incidents__incident_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IncidentPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_captures_api_incidents__incident_id__captures_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    upload_capture_api_incidents__incident_id__captures_post: {
        parameters: {
            query: {
                /** @description The file's name, shown in the UI */
                filename: string;
                /** @description Host the capture was taken on */
                host?: string | null;
                /** @description Skip content detection, e.g. perf-script */
                format?: string | null;
                /** @description cpu, offcpu, syscalls, faults, proc, snapshot… */
                kind?: string | null;
                /** @description Clock anchors as JSON (see the README) */
                clock?: string | null;
                /** @description Capture clock to UTC offset, '+12.5s' */
                offset?: string | null;
                /** @description Collector metadata, JSON */
                meta?: string | null;
                /** @description Wall-clock start (ISO 8601) for a capture nothing else aligns */
                start?: string | null;
                /** @description The column (or JSON key) holding the time, for CSV and JSON-lines files */
                time_column?: string | null;
            };
            header?: {
                /** @description The same on every try of one upload: a repeat answers 200 with the capture the first try made, and stores nothing */
                "Idempotency-Key"?: string | null;
            };
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description A repeat of an Idempotency-Key: the capture its first try made */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description This credential sent too many uploads: send it again after Retry-After seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Too many uploads at once, or the blob store is away: again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    collector_upload_api_collector_captures_post: {
        parameters: {
            query: {
                /** @description Incident id (or watch=true) */
                incident?: number | null;
                /** @description Send to the host's watch stream (made at its first upload) instead */
                watch?: boolean;
                /** @description The file's name, shown in the UI */
                filename: string;
                /** @description Host the capture was taken on */
                host?: string | null;
                /** @description Skip content detection, e.g. perf-script */
                format?: string | null;
                /** @description cpu, offcpu, syscalls, faults, proc, snapshot… */
                kind?: string | null;
                /** @description Clock anchors as JSON (see the README) */
                clock?: string | null;
                /** @description Capture clock to UTC offset, '+12.5s' */
                offset?: string | null;
                /** @description Collector metadata, JSON */
                meta?: string | null;
                /** @description Wall-clock start (ISO 8601) for a capture nothing else aligns */
                start?: string | null;
                /** @description The column (or JSON key) holding the time, for CSV and JSON-lines files */
                time_column?: string | null;
            };
            header?: {
                /** @description The same on every try of one upload: a repeat answers 200 with the capture the first try made, and stores nothing */
                "Idempotency-Key"?: string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description A repeat of an Idempotency-Key: the capture its first try made */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description This credential sent too many uploads: send it again after Retry-After seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Too many uploads at once, or the blob store is away: again after Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    shift_capture_api_captures__capture_id__shift_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShiftRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    set_capture_start_api_captures__capture_id__start_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_capture_api_captures__capture_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    trash_capture_api_captures__capture_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    reparse_capture_api_captures__capture_id__reparse_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    capture_documents_api_captures__capture_id__documents_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    download_raw_api_captures__capture_id__raw_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    flame_graph_api_flame_get: {
        parameters: {
            query: {
                max_nodes?: number | null;
                /** @description Levels below the shown frame; the rest fold into (deeper) */
                max_depth?: number | null;
                /** @description Comma-separated capture ids */
                captures: string;
                event?: string | null;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description samples, off-cpu (µs blocked) or proc-stack (/proc stack samples) */
                source?: "samples" | "off-cpu" | "proc-stack";
                /** @description Off-CPU and proc-stack only: one scheduler state, e.g. D */
                state?: string | null;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                /** @description Offsets in every second, µs: 0-20000, or !0-20000 for outside */
                within?: string | null;
                /** @description JSON array of frame names from the root */
                focus?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlameAnswer"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    folded_api_flame_folded_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
                event?: string | null;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description samples, off-cpu (µs blocked) or proc-stack (/proc stack samples) */
                source?: "samples" | "off-cpu" | "proc-stack";
                /** @description Off-CPU and proc-stack only: one scheduler state, e.g. D */
                state?: string | null;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                /** @description Offsets in every second, µs: 0-20000, or !0-20000 for outside */
                within?: string | null;
                /** @description JSON array of frame names from the root */
                focus?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    stack_frames_api_stacks__stack_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                stack_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FrameOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    facets_api_facets_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
                event?: string | null;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description samples, off-cpu (µs blocked) or proc-stack (/proc stack samples) */
                source?: "samples" | "off-cpu" | "proc-stack";
                /** @description Off-CPU and proc-stack only: one scheduler state, e.g. D */
                state?: string | null;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                /** @description Offsets in every second, µs: 0-20000, or !0-20000 for outside */
                within?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FacetsOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_tokens_api_tokens_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenOut"][];
                };
            };
        };
    };
    create_token_api_tokens_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCreated"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    revoke_token_api_tokens__token_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_events_api_events_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
                kind?: string | null;
                name?: string | null;
                tid?: number | null;
                start?: string | null;
                end?: string | null;
                sort?: "time" | "duration";
                descending?: boolean;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_series_api_metrics_series_get: {
        parameters: {
            query?: {
                /** @description Comma-separated capture ids */
                captures?: string | null;
                /** @description Without captures: every capture of this incident */
                incident?: number | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SeriesOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    series_points_api_metrics_series__series_id__points_get: {
        parameters: {
            query?: {
                /** @description Inclusive, ISO 8601; the grid starts here */
                start?: string | null;
                /** @description Inclusive, ISO 8601 */
                end?: string | null;
                /** @description About one per pixel */
                buckets?: number;
                /** @description Draw the increase per second (default: for counters only) */
                rate?: boolean | null;
            };
            header?: never;
            path: {
                series_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SeriesPoints"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_tracks_api_timeline_tracks_get: {
        parameters: {
            query: {
                /** @description Incident id */
                incident: number;
                /** @description Comma-separated capture ids; default all */
                captures?: string | null;
                /** @description Comma-separated host names; default all */
                hosts?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TracksOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    timeline_api_timeline_get: {
        parameters: {
            query: {
                /** @description Comma-separated track ids from /api/timeline/tracks */
                tracks?: string;
                /** @description Inclusive, ISO 8601 with a zone */
                start?: string | null;
                /** @description Exclusive, ISO 8601 with a zone */
                end?: string | null;
                /** @description Plot width in pixels */
                width?: number;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description CPU: processes drawn apart */
                top?: number;
                /** @description CPU: stack by process or by thread */
                split?: "process" | "thread";
                /** @description Incident id */
                incident: number;
                /** @description Comma-separated capture ids; default all */
                captures?: string | null;
                /** @description Comma-separated host names; default all */
                hosts?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimelineOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_annotations_api_incidents__incident_id__annotations_get: {
        parameters: {
            query?: {
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
            };
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_annotation_api_incidents__incident_id__annotations_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnnotationCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_annotation_api_annotations__annotation_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                annotation_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    update_annotation_api_annotations__annotation_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                annotation_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnnotationUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    diff_api_diff_get: {
        parameters: {
            query?: {
                /** @description samples, off-cpu (µs blocked) or proc-stack (/proc stack samples) */
                source?: "samples" | "off-cpu" | "proc-stack";
                /** @description Off-CPU and proc-stack only: one scheduler state, e.g. D */
                state?: string | null;
                /** @description CPU only: default the most sampled event */
                event?: string | null;
                /** @description total: scale A to B's total (compare shares); none: raw weights */
                normalize?: "total" | "none";
                max_nodes?: number | null;
                /** @description Levels below the shown frame; the rest fold into (deeper) */
                max_depth?: number | null;
                /** @description Functions per sort (total, self) */
                top?: number;
                /** @description Comma-separated capture ids */
                "a.captures"?: string | null;
                /** @description Inclusive, ISO 8601 */
                "a.start"?: string | null;
                /** @description Exclusive, ISO 8601 */
                "a.end"?: string | null;
                "a.pid"?: number | null;
                "a.tid"?: number | null;
                /** @description Process or thread name */
                "a.comm"?: string | null;
                /** @description Offsets in every second, µs: 0-20000, or !0-20000 for outside */
                "a.within"?: string | null;
                /** @description Comma-separated capture ids */
                "b.captures"?: string | null;
                /** @description Inclusive, ISO 8601 */
                "b.start"?: string | null;
                /** @description Exclusive, ISO 8601 */
                "b.end"?: string | null;
                "b.pid"?: number | null;
                "b.tid"?: number | null;
                /** @description Process or thread name */
                "b.comm"?: string | null;
                /** @description Offsets in every second, µs: 0-20000, or !0-20000 for outside */
                "b.within"?: string | null;
                /** @description JSON array of frame names from the root */
                focus?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiffOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    thread_states_api_threads_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description Keep threads whose name matches */
                comm_regex?: string | null;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadsOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    thread_strip_api_threads_strip_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
                tid: number;
                /** @description The thread's name, when its tid had several */
                comm?: string | null;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                /** @description About the strip's width in pixels */
                buckets?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StripOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    heatmap_api_heatmap_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
                /** @description Which records; default: the one with the most */
                stream?: ("samples" | "off-cpu" | "on-cpu" | "syscall" | "fault" | "function" | "tracepoint") | null;
                /** @description Rows per second; must split it into whole µs (10, 20, 50, 100…) */
                rows?: string;
                /** @description count, or summed duration (ns) */
                value?: "count" | "duration";
                /** @description Samples: one perf event (default: busiest) */
                event?: string | null;
                /** @description Event streams: one name, e.g. futex */
                name?: string | null;
                /** @description Off-CPU: one scheduler state, e.g. D */
                state?: string | null;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                /** @description Hottest cells to list */
                top?: number;
                /** @description Merge seconds into wider columns beyond this */
                max_columns?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HeatmapOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    streams_api_heatmap_streams_get: {
        parameters: {
            query: {
                /** @description Comma-separated capture ids */
                captures: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamsOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_share_api_shares_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShareCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    read_share_api_shares__link_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                link_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_snapshots_api_incidents__incident_id__snapshots_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SnapshotRef"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    config_diff_api_snapshots_diff_get: {
        parameters: {
            query: {
                /** @description CAPTURE or CAPTURE:TAKE (take 0, the first, when left out) */
                a: string;
                /** @description CAPTURE or CAPTURE:TAKE (take 0, the first, when left out) */
                b: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigDiffOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_findings_api_incidents__incident_id__findings_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FindingsOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_window_findings_api_incidents__incident_id__findings_window_get: {
        parameters: {
            query: {
                /** @description The window's start, inclusive, ISO 8601 */
                start: string;
                /** @description The window's end, exclusive, ISO 8601 */
                end: string;
                /** @description Comma-separated host names; all when absent */
                hosts?: string | null;
                /** @description Compare with the time before the window, or after it */
                baseline?: "before" | "after";
            };
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WindowFindingsOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    put_baseline_api_incidents__incident_id__findings_baseline_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BaselineIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FindingsOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_verdict_api_incidents__incident_id__findings__finding_id__verdict_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
                finding_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerdictIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerdictOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    restore_incident_api_incidents__incident_id__restore_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncidentOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    restore_capture_api_captures__capture_id__restore_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_trash_api_trash_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrashOut"];
                };
            };
        };
    };
    purge_incident_api_trash_incidents__incident_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    purge_capture_api_trash_captures__capture_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                capture_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_retention_api_retention_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionPolicy"];
                };
            };
        };
    };
    put_retention_api_retention_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionPolicy"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionPolicy"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    incident_storage_api_incidents__incident_id__storage_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StorageOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    preview_redaction_api_incidents__incident_id__bundle_preview_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BundleRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RedactionPreviewOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    export_bundle_api_incidents__incident_id__bundle_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BundleRequest"];
            };
        };
        responses: {
            /** @description The bundle */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    import_bundle_api_bundles_post: {
        parameters: {
            query?: {
                /** @description The bundle's file name, for messages */
                filename?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BundleImportOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    flame_export_api_flame_export_get: {
        parameters: {
            query: {
                /** @description pprof (gzipped protobuf) or speedscope (JSON) */
                format: "pprof" | "speedscope";
                /** @description Comma-separated capture ids */
                captures: string;
                event?: string | null;
                pid?: number | null;
                tid?: number | null;
                comm?: string | null;
                /** @description samples, off-cpu (µs blocked) or proc-stack (/proc stack samples) */
                source?: "samples" | "off-cpu" | "proc-stack";
                /** @description Off-CPU and proc-stack only: one scheduler state, e.g. D */
                state?: string | null;
                /** @description Inclusive, ISO 8601 */
                start?: string | null;
                /** @description Exclusive, ISO 8601 */
                end?: string | null;
                /** @description Offsets in every second, µs: 0-20000, or !0-20000 for outside */
                within?: string | null;
                /** @description JSON array of frame names from the root */
                focus?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description pprof's gzipped protobuf, or speedscope's JSON file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                    "application/json": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    timeline_export_api_timeline_export_get: {
        parameters: {
            query: {
                /** @description chrome: trace-event JSON */
                format: "chrome";
                /** @description Inclusive, ISO 8601 with a zone */
                start?: string | null;
                /** @description Exclusive, ISO 8601 with a zone */
                end?: string | null;
                /** @description Samples and events at most */
                limit?: number;
                /** @description Incident id */
                incident: number;
                /** @description Comma-separated capture ids; default all */
                captures?: string | null;
                /** @description Comma-separated host names; default all */
                hosts?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A Chrome trace-event JSON file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    postmortem_markdown_api_incidents__incident_id__postmortem_md_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
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
                    "text/markdown": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    postmortem_html_api_incidents__incident_id__postmortem_html_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
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
                    "text/html": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    postmortem_archive_api_incidents__incident_id__postmortem_zip_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
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
                    "application/zip": unknown;
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_signatures_api_signatures_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignatureOut"][];
                };
            };
        };
    };
    create_signature_api_signatures_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignatureIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignatureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    change_signature_api_signatures__signature_id__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                signature_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignatureIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignatureOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_signature_api_signatures__signature_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                signature_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_webhooks_api_webhooks_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookOut"][];
                };
            };
        };
    };
    create_webhook_api_webhooks_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    change_webhook_api_webhooks__webhook_id__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_webhook_api_webhooks__webhook_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_alerts_api_alerts_get: {
        parameters: {
            query?: {
                /** @description Newest first */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertOut"][];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    open_incident_api_alerts__alert_id__incident_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alert_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenedIncidentOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    add_day_before_api_incidents__incident_id__day_before_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                incident_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DayBeforeOut"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_streams_api_watch_streams_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchStreamOut"][];
                };
            };
        };
    };
    metrics_api_metrics_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
