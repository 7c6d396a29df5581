// The C headers Mercurial speaks to. GEGL_ITERATOR2_API and the plug-in header give the
// operation class structs that a module subclasses.
#pragma once
#define GEGL_ITERATOR2_API
#include <gegl.h>
#include <gegl-plugin.h>
#include <gegl-cpuaccel.h>
#include <gmodule.h>
