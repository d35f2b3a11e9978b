// Registers the C++ TurboModule 'PayHandoff' on iOS (package.json codegenConfig.ios.modulesProvider).
// NOT COMPILED HERE (needs React Native's iOS headers); forwarding only.
#import <Foundation/Foundation.h>
#import <ReactCommon/RCTTurboModule.h>

#include "NativePayHandoffModule.h"

@interface PayHandoffModuleProvider : NSObject <RCTModuleProvider>
@end

@implementation PayHandoffModuleProvider

- (std::shared_ptr<facebook::react::TurboModule>)getTurboModule:
    (const facebook::react::ObjCTurboModule::InitParams &)params
{
  return std::make_shared<facebook::react::NativePayHandoffModule>(params.jsInvoker);
}

@end
