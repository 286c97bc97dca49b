#include <poppler.h>
#include <cairo.h>
#include <glib.h>
#include <glib-object.h>
