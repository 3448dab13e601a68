# Install rules: libraries, headers, CMake package, pkg-config file.

install(TARGETS worldkern worldkern_static EXPORT worldkernTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/worldkern DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT worldkernTargets NAMESPACE worldkern::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/worldkern)

# The config file recreates the runtime targets the static library links
# (see cmake/dependencies.cmake).
configure_package_config_file(cmake/worldkernConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/worldkernConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/worldkern)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/worldkernConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/worldkernConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/worldkernConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/worldkern)

# pkg-config finds the prefix relative to the .pc file, so that the install
# works wherever `cmake --install --prefix` puts it.
file(RELATIVE_PATH WK_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(cmake/worldkern.pc.in ${CMAKE_CURRENT_BINARY_DIR}/worldkern.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/worldkern.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
