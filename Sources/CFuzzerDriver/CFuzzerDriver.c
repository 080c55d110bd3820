// Header-only module: SwiftPM wants a source file per C target.
#include "CFuzzerDriver.h"
