//! The attribute dictionary: macro names and key strings of every attribute the headers
//! define, for `PMIx_Get_attribute_string`, `PMIx_Get_attribute_name` and printing.

use pmix_sys::{ATTRIBUTES, ATTRIBUTES_V5, AttrDef, DEPRECATED_ATTRIBUTES};

fn all() -> impl Iterator<Item = AttrDef> {
    ATTRIBUTES
        .iter()
        .chain(ATTRIBUTES_V5.iter())
        .chain(DEPRECATED_ATTRIBUTES.iter())
}

/// The definition of the attribute whose key string is `key` (the first one in header order
/// where two names share a string).
pub fn by_key(key: &[u8]) -> Option<AttrDef> {
    all().find(|a| a.key.to_bytes() == key)
}

/// The definition of the attribute whose macro name is `name`.
pub fn by_name(name: &[u8]) -> Option<AttrDef> {
    all().find(|a| a.name.to_bytes() == name)
}

/// Attributes a host has declared it supports, per API function (`PMIx_Register_attributes`).
static REGISTERED: std::sync::Mutex<std::collections::BTreeMap<Vec<u8>, Vec<crate::PStr>>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// Records that the host supports `keys` for `function`. A function can be registered once;
/// a second registration is `PMIX_ERR_REPEAT_ATTR_REGISTRATION`, as in the reference.
pub fn register(function: &[u8], keys: Vec<crate::PStr>) -> crate::Result<()> {
    let mut map = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    if map.contains_key(function) {
        return Err(crate::Error::Status(
            pmix_sys::PMIX_ERR_REPEAT_ATTR_REGISTRATION,
        ));
    }
    map.insert(function.to_vec(), keys);
    Ok(())
}

/// The attributes registered for `function`, if any.
pub fn registered(function: &[u8]) -> Option<Vec<crate::PStr>> {
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(function)
        .cloned()
}

/// Every function with registered attributes.
pub fn registered_functions() -> Vec<crate::PStr> {
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .keys()
        .map(|k| k.clone().into())
        .collect()
}

/// The three roles of this library, for `pattrs` (the host's support is the host's to say,
/// through `PMIX_QUERY_ATTRIBUTE_SUPPORT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Client,
    Server,
    Tool,
}

use pmix_sys::*;

const TOOL_INIT: &[&core::ffi::CStr] = &[
    PMIX_SERVER_URI,
    PMIX_TCP_URI,
    PMIX_TOOL_ATTACHMENT_FILE,
    PMIX_CONNECT_TO_SYSTEM,
    PMIX_CONNECT_SYSTEM_FIRST,
    PMIX_SERVER_PIDINFO,
    PMIX_SERVER_NSPACE,
    PMIX_SYSTEM_TMPDIR,
    PMIX_LAUNCHER,
    PMIX_TOOL_NSPACE,
    PMIX_TOOL_RANK,
    PMIX_TOOL_DO_NOT_CONNECT,
    PMIX_TOOL_CONNECT_OPTIONAL,
    PMIX_CONNECT_MAX_RETRIES,
    PMIX_CONNECT_RETRY_DELAY,
];

/// The functions this library provides in `role`, each with the attributes the library
/// itself acts on (attributes only passed on to the host are the host's to list).
pub fn supported(role: Role) -> &'static [(&'static str, &'static [&'static core::ffi::CStr])] {
    match role {
        Role::Client => &[
            ("PMIx_Init", &[]),
            ("PMIx_Finalize", &[]),
            ("PMIx_Abort", &[]),
            ("PMIx_Put", &[]),
            ("PMIx_Commit", &[]),
            ("PMIx_Fence", &[PMIX_COLLECT_DATA, PMIX_TIMEOUT]),
            ("PMIx_Get", &[PMIX_IMMEDIATE, PMIX_TIMEOUT]),
            ("PMIx_Publish", &[PMIX_TIMEOUT]),
            ("PMIx_Lookup", &[PMIX_TIMEOUT]),
            ("PMIx_Unpublish", &[PMIX_TIMEOUT]),
            ("PMIx_Spawn", &[]),
            ("PMIx_Connect", &[]),
            ("PMIx_Disconnect", &[]),
            (
                "PMIx_Register_event_handler",
                &[
                    PMIX_EVENT_HDLR_NAME,
                    PMIX_EVENT_HDLR_FIRST,
                    PMIX_EVENT_HDLR_LAST,
                    PMIX_EVENT_HDLR_FIRST_IN_CATEGORY,
                    PMIX_EVENT_HDLR_LAST_IN_CATEGORY,
                ],
            ),
            ("PMIx_Deregister_event_handler", &[]),
            ("PMIx_Notify_event", &[]),
            ("PMIx_Query_info", &[PMIX_QUERY_AVAIL_SERVERS]),
            ("PMIx_Log", &[]),
            ("PMIx_Job_control", &[]),
            ("PMIx_Process_monitor", &[]),
            ("PMIx_Get_credential", &[]),
            ("PMIx_Validate_credential", &[]),
            ("PMIx_Group_construct", &[PMIX_TIMEOUT]),
            ("PMIx_Group_invite", &[PMIX_TIMEOUT]),
            ("PMIx_Group_join", &[]),
            ("PMIx_Group_leave", &[]),
            ("PMIx_Group_destruct", &[]),
        ],
        Role::Server => &[
            (
                "PMIx_server_init",
                &[
                    PMIX_SERVER_TOOL_SUPPORT,
                    PMIX_SERVER_SESSION_SUPPORT,
                    PMIX_SERVER_SYSTEM_SUPPORT,
                    PMIX_SERVER_TMPDIR,
                    PMIX_SYSTEM_TMPDIR,
                    PMIX_SERVER_NSPACE,
                    PMIX_SERVER_RANK,
                    PMIX_TCP_IPV4_PORT,
                    PMIX_LAUNCHER_RENDEZVOUS_FILE,
                    PMIX_HOSTNAME,
                ],
            ),
            ("PMIx_server_finalize", &[]),
            ("PMIx_server_register_nspace", &[]),
            ("PMIx_server_deregister_nspace", &[]),
            ("PMIx_server_register_client", &[]),
            ("PMIx_server_deregister_client", &[]),
            ("PMIx_server_setup_fork", &[]),
            ("PMIx_server_dmodex_request", &[]),
            ("PMIx_server_setup_application", &[]),
            ("PMIx_server_setup_local_support", &[]),
            ("PMIx_server_IOF_deliver", &[]),
            ("PMIx_server_define_process_set", &[]),
            ("PMIx_server_delete_process_set", &[]),
            ("PMIx_Register_attributes", &[]),
            ("PMIx_generate_regex", &[]),
            ("PMIx_generate_ppn", &[]),
        ],
        Role::Tool => &[
            ("PMIx_tool_init", TOOL_INIT),
            ("PMIx_tool_finalize", &[]),
            ("PMIx_tool_attach_to_server", TOOL_INIT),
            ("PMIx_tool_disconnect", &[]),
            ("PMIx_tool_get_servers", &[]),
            ("PMIx_tool_set_server", &[]),
            ("PMIx_IOF_pull", &[]),
            ("PMIx_IOF_deregister", &[]),
            ("PMIx_IOF_push", &[]),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supported_attributes_are_known_attributes() {
        for role in [Role::Client, Role::Server, Role::Tool] {
            for (f, keys) in supported(role) {
                assert!(f.starts_with("PMIx_"), "{f}");
                for k in *keys {
                    assert!(by_key(k.to_bytes()).is_some(), "{f}: {k:?}");
                }
            }
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(by_key(b"pmix.rank").map(|a| a.name), Some(c"PMIX_RANK"));
        assert_eq!(
            by_name(b"PMIX_RANK").map(|a| a.key.to_bytes()),
            Some(&b"pmix.rank"[..])
        );
        // Two names share "pmix.qry.quals"; the first in header order wins.
        assert_eq!(
            by_key(b"pmix.qry.quals").map(|a| a.name),
            Some(c"PMIX_QUERY_QUALIFIERS")
        );
        // Deprecated attributes are in the dictionary too.
        assert_eq!(
            by_key(b"pmix.evbase").map(|a| a.name),
            Some(c"PMIX_EVENT_BASE")
        );
        assert!(by_key(b"no.such.key").is_none());
    }

    #[test]
    fn registration_once_per_function() {
        register(b"PMIx_Test_fn", vec!["pmix.rank".into()]).unwrap();
        assert_eq!(
            register(b"PMIx_Test_fn", vec![]).unwrap_err().status(),
            pmix_sys::PMIX_ERR_REPEAT_ATTR_REGISTRATION
        );
        assert_eq!(
            registered(b"PMIx_Test_fn").unwrap(),
            vec![crate::PStr::from("pmix.rank")]
        );
    }
}
