def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 (Qt's name; lupdate extracts it)
    """Marks core text that the window translates; the i18n branch defines this module in full."""
    return text
