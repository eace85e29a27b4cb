# Observatory's Windows installer, for Debian's makensis (scripts/package.sh) and for
# `wails build -nsis`. It installs for the current user only, so it needs no administrator:
# the program goes to %LOCALAPPDATA%\Programs\Observatory, a shortcut to the Start menu, and an
# uninstaller that Settings > Apps lists. Runs and settings live in the per-user data folder
# (%LOCALAPPDATA%\Observatory) and are left in place by the uninstaller.
#
# The window needs the Microsoft Edge WebView2 Runtime (part of Windows 11, and of Windows 10
# with current updates). Where it is missing, the installer says so and how to get it.
#
#   makensis -DARG_WAILS_AMD64_BINARY=path\to\observatory.exe -DINFO_PRODUCTVERSION=1.2.3 \
#            -DOUTFILE=path\to\installer.exe project.nsi
#
# This file does not include wails_tools.nsh: `wails build -nsis` writes one beside it, and
# its WebView2 step downloads Microsoft's bootstrapper at build time, which we do not do.

# A 64-bit installer for a 64-bit program (it also runs under Wine without 32-bit support).
Target amd64-unicode
SetCompressor /SOLID lzma
ManifestDPIAware true

!ifndef INFO_PRODUCTNAME
  !define INFO_PRODUCTNAME "Observatory"
!endif
!ifndef INFO_COMPANYNAME
  !define INFO_COMPANYNAME "Observatory"
!endif
!ifndef INFO_PRODUCTVERSION
  !define INFO_PRODUCTVERSION "0.0.0"
!endif
!ifndef INFO_COPYRIGHT
  !define INFO_COPYRIGHT "Copyright the Observatory developers"
!endif
!ifndef ARG_WAILS_AMD64_BINARY
  !error "Pass the program to install: -DARG_WAILS_AMD64_BINARY=path\to\observatory.exe"
!endif
!ifndef OUTFILE
  !define OUTFILE "..\..\bin\observatory-amd64-installer.exe"
!endif
!define PRODUCT_EXECUTABLE "observatory.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Observatory"
# The WebView2 Runtime's client key: present, with a version in "pv", once it is installed.
!define WEBVIEW2_CLIENT "Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"

Name "${INFO_PRODUCTNAME}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${INFO_PRODUCTNAME}"
ShowInstDetails show

# VIProductVersion wants four numbers.
VIProductVersion "${INFO_PRODUCTVERSION}.0"
VIFileVersion    "${INFO_PRODUCTVERSION}.0"
VIAddVersionKey "CompanyName"     "${INFO_COMPANYNAME}"
VIAddVersionKey "FileDescription" "${INFO_PRODUCTNAME} Installer"
VIAddVersionKey "ProductVersion"  "${INFO_PRODUCTVERSION}"
VIAddVersionKey "FileVersion"     "${INFO_PRODUCTVERSION}"
VIAddVersionKey "LegalCopyright"  "${INFO_COPYRIGHT}"
VIAddVersionKey "ProductName"     "${INFO_PRODUCTNAME}"

!include "MUI2.nsh"
!include "x64.nsh"
!include "WinVer.nsh"
!include "FileFunc.nsh"

!define MUI_ICON "..\icon.ico"
!define MUI_UNICON "..\icon.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${PRODUCT_EXECUTABLE}"
!define MUI_FINISHPAGE_RUN_TEXT "Open ${INFO_PRODUCTNAME}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
  ${IfNot} ${RunningX64}
  ${OrIfNot} ${AtLeastWin10}
    MessageBox MB_OK|MB_ICONSTOP "${INFO_PRODUCTNAME} needs 64-bit Windows 10 or later." /SD IDOK
    SetErrorLevel 64
    Abort
  ${EndIf}
  SetShellVarContext current
  Call CheckWebView2
FunctionEnd

# CheckWebView2 looks for the WebView2 Runtime where Microsoft's installers register it, per
# machine or per user. Without it the window cannot open, so it explains what to install and
# lets the user go on (to install the runtime afterwards) or stop. A silent install goes on.
Function CheckWebView2
  SetRegView 64
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\${WEBVIEW2_CLIENT}" "pv"
  StrCmp $0 "" 0 found
  ReadRegStr $0 HKLM "SOFTWARE\${WEBVIEW2_CLIENT}" "pv"
  StrCmp $0 "" 0 found
  ReadRegStr $0 HKCU "Software\${WEBVIEW2_CLIENT}" "pv"
  StrCmp $0 "" 0 found
  IfSilent 0 ask
    DetailPrint "The Microsoft Edge WebView2 Runtime is not installed; ${INFO_PRODUCTNAME}'s window needs it."
    Return
  ask:
  MessageBox MB_YESNO|MB_ICONEXCLAMATION \
    "${INFO_PRODUCTNAME}'s window needs the Microsoft Edge WebView2 Runtime, which is not installed on this computer.$\r$\n$\r$\nWindows 11 includes it. On Windows 10, install it from Microsoft:$\r$\nhttps://developer.microsoft.com/microsoft-edge/webview2/ (the Evergreen Bootstrapper).$\r$\n$\r$\nThe command line (observatory.exe run, verify, serve) works without it.$\r$\n$\r$\nInstall ${INFO_PRODUCTNAME} anyway?" \
    IDYES found
  Abort
  found:
FunctionEnd

Section "Install"
  SetOutPath "$INSTDIR"
  File "/oname=${PRODUCT_EXECUTABLE}" "${ARG_WAILS_AMD64_BINARY}"
  CreateShortcut "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk" "$INSTDIR\${PRODUCT_EXECUTABLE}"

  WriteUninstaller "$INSTDIR\uninstall.exe"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${INFO_PRODUCTNAME}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${INFO_PRODUCTVERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "${INFO_COMPANYNAME}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${PRODUCT_EXECUTABLE}"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" "$\"$INSTDIR\uninstall.exe$\""
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" "$\"$INSTDIR\uninstall.exe$\" /S"
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" $0
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\${INFO_PRODUCTNAME}.lnk"
  Delete "$INSTDIR\${PRODUCT_EXECUTABLE}"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  # The WebView2 cache Wails keeps beside the user's roaming profile; not the user's runs.
  RMDir /r "$APPDATA\${PRODUCT_EXECUTABLE}"
  DeleteRegKey HKCU "${UNINST_KEY}"
SectionEnd
