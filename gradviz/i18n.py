"""Marks strings of the Qt-free core for Qt's translation tools (lupdate finds the calls); the
window translates them with QCoreApplication.translate(context, text) when it shows them."""


def QT_TRANSLATE_NOOP(context, text):
    return text
