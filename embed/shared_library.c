/* libalea.so's own translation unit: the library is the C API's archives
 * linked whole (embed/CMakeLists.txt); this file only gives the target a
 * source, and checks that alea.h is C. */
#include "alea/alea.h"
