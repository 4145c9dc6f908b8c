// libxml2's SAX2 push parser: KeePass's XML read without FoundationXML's
// per-callback strings and dictionaries (a third of a 100,000-entry import).
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the copy
// inside Foundation (_FoundationICU) when both reach one Swift module.
// Nothing here uses ICU's types: they only sit at the end of the encoding
// handler, which bulwark never looks inside.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
