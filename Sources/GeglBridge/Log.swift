import CGegl

/// Logs a GLib warning in the "Mercurial" domain (hosts show these; GIMP in its error console).
public func warn(_ message: String) {
    // Why withVaList: g_log is variadic; g_logv takes the arguments as a va_list.
    message.withCString { text in
        withVaList([text]) { g_logv("Mercurial", G_LOG_LEVEL_WARNING, "%s", $0) }
    }
}
