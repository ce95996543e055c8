# Debian's Abseil CMake package imports the shared libraries. The start-up
# budget (docs/decisions.md "Build and tests": 2.7 ms dynamic vs 1.8 ms static)
# wants the static archives, which Debian ships beside them, so point every
# imported absl:: target at its `.a`. The shared libraries' paths stay in
# ALEA_ABSL_SHARED_LIBRARIES for libalea.so: Debian's archives are built for
# executables (their thread-locals cannot go into a shared object).
set(ALEA_ABSL_SHARED_LIBRARIES)
get_directory_property(_alea_imported IMPORTED_TARGETS)
foreach(_target IN LISTS _alea_imported)
  if(NOT _target MATCHES "^absl::")
    continue()
  endif()
  get_target_property(_type ${_target} TYPE)
  if(_type STREQUAL "INTERFACE_LIBRARY")
    continue()
  endif()
  foreach(_config NONE RELEASE DEBUG RELWITHDEBINFO)
    get_target_property(_location ${_target} IMPORTED_LOCATION_${_config})
    if(_location)
      string(REGEX REPLACE "\\.so(\\.[0-9.]+)?$" ".a" _static "${_location}")
      if(EXISTS "${_static}")
        list(APPEND ALEA_ABSL_SHARED_LIBRARIES "${_location}")
        set_target_properties(${_target} PROPERTIES IMPORTED_LOCATION_${_config} "${_static}")
      endif()
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES ALEA_ABSL_SHARED_LIBRARIES)
